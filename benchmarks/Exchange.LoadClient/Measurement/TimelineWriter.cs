using System.Diagnostics;
using System.Globalization;

namespace Exchange.LoadClient.Measurement;

/// <summary>
/// Writes every measured order's times as CSV, so the slow tail of a run can be placed in time and set beside a
/// scheduler trace: whether slow orders cluster in a few stalls, and whether the stall was before the venue or after.
/// </summary>
/// <remarks>
/// Columns: the order number; its intended send time as an absolute clock reading in nanoseconds (on Linux
/// Stopwatch is CLOCK_MONOTONIC, the clock of `perf sched timehist` when recorded with `perf record -k mono`); then
/// intended, sent and received times in microseconds from the first measured order's intended time, and the latency.
/// A measured order that was sent but never acknowledged has empty received and latency columns.
/// </remarks>
internal static class TimelineWriter
{
    public const string Header = "order,intended_clock_ns,intended_us,sent_us,received_us,latency_us";

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
            if (!tracker.IsMeasured(n) || sent == 0)
            {
                continue;
            }

            if (origin < 0)
            {
                origin = intended;
            }

            long clockNanos = (long)((Int128)intended * 1_000_000_000 / Stopwatch.Frequency);
            string times = string.Format(c, "{0},{1},{2:F1},{3:F1}", n, clockNanos, (intended - origin) / ticksPerMicrosecond, (sent - origin) / ticksPerMicrosecond);
            writer.WriteLine(received == 0
                ? times + ",,"
                : string.Format(c, "{0},{1:F1},{2:F1}", times, (received - origin) / ticksPerMicrosecond, (received - intended) / ticksPerMicrosecond));
        }
    }
}
