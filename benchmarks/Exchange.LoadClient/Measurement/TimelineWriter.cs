using System.Diagnostics;
using System.Globalization;

namespace Exchange.LoadClient.Measurement;

/// <summary>
/// Writes every measured order's times as CSV (microseconds from the first measured order's intended send time), so
/// the slow tail of a run can be placed in time and set beside a scheduler trace (`perf sched timehist`): whether
/// slow orders cluster in a few stalls, and whether the stall was before the venue or after it.
/// </summary>
internal static class TimelineWriter
{
    public const string Header = "order,intended_us,sent_us,received_us,latency_us";

    public static void Write(TextWriter writer, OrderTracker tracker)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(tracker);
        double ticksPerMicrosecond = Stopwatch.Frequency / 1_000_000.0;
        CultureInfo c = CultureInfo.InvariantCulture;
        long origin = -1;
        writer.WriteLine(Header);
        for (long n = 0; n < tracker.FlowOrders; n++)
        {
            (long intended, long sent, long received) = tracker.TimesOf(n);
            if (!tracker.IsMeasured(n) || sent == 0 || received == 0)
            {
                continue;
            }

            if (origin < 0)
            {
                origin = intended;
            }

            writer.WriteLine(string.Format(c, "{0},{1:F1},{2:F1},{3:F1},{4:F1}", n,
                (intended - origin) / ticksPerMicrosecond, (sent - origin) / ticksPerMicrosecond,
                (received - origin) / ticksPerMicrosecond, (received - intended) / ticksPerMicrosecond));
        }
    }
}
