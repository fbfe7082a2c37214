using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Exchange.Host.Metrics;

/// <summary>
/// How often the Inline polling thread's passes run long, for <see cref="VenueMetrics"/> and the stop log: passes
/// over 100 µs, 1 ms and 10 ms (counted since start), and the total time of those over 100 µs. A busy-polling pass
/// (read every connection, run the pipeline, the session timers when due, send) takes microseconds; a slow one means
/// the thread lost its CPU (another thread, an interrupt, the hypervisor) or had a large batch to work through, and
/// every order that arrived meanwhile waited that long. This is the venue's own view of the stalls behind a latency tail.
/// </summary>
/// <remarks>
/// Writer: the polling thread, one <see cref="Observe"/> per pass (compares and plain stores, no allocation).
/// Readers: any number of threads; everything is a running total, so each reader takes its own differences.
/// The totals sit on their own cache line, away from other hot data.
/// </remarks>
[StructLayout(LayoutKind.Explicit, Size = 256)]
internal sealed class PollerPasses
{
    /// <summary>The bounds, ascending: well above a busy pass, up to beyond a scheduler slice (4 ms at 250 Hz).</summary>
    public static readonly TimeSpan[] Bounds = [TimeSpan.FromMicroseconds(100), TimeSpan.FromMilliseconds(1), TimeSpan.FromMilliseconds(10)];

    private static readonly long Over100Ticks = Ticks(Bounds[0]);
    private static readonly long Over1MsTicks = Ticks(Bounds[1]);
    private static readonly long Over10MsTicks = Ticks(Bounds[2]);

    [FieldOffset(128)]
    private long _over100Us;

    [FieldOffset(136)]
    private long _over1Ms;

    [FieldOffset(144)]
    private long _over10Ms;

    [FieldOffset(152)]
    private long _slowTicks;

    /// <summary>Passes longer than <see cref="Bounds"/>[index], since start.</summary>
    public long PassesOver(int index) => index switch
    {
        0 => Volatile.Read(ref _over100Us),
        1 => Volatile.Read(ref _over1Ms),
        2 => Volatile.Read(ref _over10Ms),
        _ => throw new ArgumentOutOfRangeException(nameof(index)),
    };

    /// <summary>Total time of the passes over 100 µs, milliseconds, since start.</summary>
    public double SlowPassMilliseconds => Volatile.Read(ref _slowTicks) * 1000.0 / Stopwatch.Frequency;

    /// <summary>Polling thread only: one pass took <paramref name="passTicks"/> Stopwatch ticks.</summary>
    public void Observe(long passTicks)
    {
        if (passTicks <= Over100Ticks)
        {
            return;
        }

        Volatile.Write(ref _over100Us, _over100Us + 1);
        Volatile.Write(ref _slowTicks, _slowTicks + passTicks);
        if (passTicks > Over1MsTicks)
        {
            Volatile.Write(ref _over1Ms, _over1Ms + 1);
            if (passTicks > Over10MsTicks)
            {
                Volatile.Write(ref _over10Ms, _over10Ms + 1);
            }
        }
    }

    /// <summary>"100us", "1ms", "10ms": the metric tag of <see cref="Bounds"/>[index].</summary>
    public static string BoundName(int index) => Bounds[index].TotalMilliseconds < 1
        ? $"{Bounds[index].TotalMicroseconds:0}us"
        : $"{Bounds[index].TotalMilliseconds:0}ms";

    private static long Ticks(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);
}
