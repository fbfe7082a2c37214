using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Exchange.Host.Metrics;

/// <summary>
/// How long the Inline polling thread's passes take, for <see cref="VenueMetrics"/>: passes slower than a threshold
/// (counted, and their time summed) and the longest pass since the last look. A busy-polling thread's pass takes
/// microseconds; a slow one means the thread lost its CPU (another thread, an interrupt, the hypervisor) or had a large
/// batch to work through. Every order that arrived meanwhile waited that long, so this is the venue's own view of the
/// stalls that make a latency tail.
/// </summary>
/// <remarks>
/// Writer: the polling thread, one <see cref="Observe"/> per pass (compares and plain stores, no allocation).
/// Readers: any thread. The counts sit on their own cache lines, away from other hot data.
/// </remarks>
[StructLayout(LayoutKind.Explicit, Size = 320)]
internal sealed class PollerPasses
{
    /// <summary>Slower than this is a slow pass: well above a busy pass, well below a scheduler slice (4 ms).</summary>
    public static readonly TimeSpan DefaultSlowPass = TimeSpan.FromMicroseconds(100);

    [FieldOffset(0)]
    private readonly long _slowTicks;

    [FieldOffset(128)]
    private long _slowPasses;

    [FieldOffset(136)]
    private long _slowPassTicks;

    // Its own line: the collector resets it, and the polling thread compares against it every pass.
    [FieldOffset(256)]
    private long _longestTicks;

    public PollerPasses()
        : this(DefaultSlowPass)
    {
    }

    public PollerPasses(TimeSpan slowPass)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(slowPass, TimeSpan.Zero);
        _slowTicks = (long)(slowPass.TotalSeconds * Stopwatch.Frequency);
    }

    public long SlowPasses => Volatile.Read(ref _slowPasses);

    /// <summary>Total time of the slow passes, milliseconds.</summary>
    public double SlowPassMilliseconds => Volatile.Read(ref _slowPassTicks) * 1000.0 / Stopwatch.Frequency;

    /// <summary>Polling thread only: one pass took <paramref name="passTicks"/> Stopwatch ticks.</summary>
    public void Observe(long passTicks)
    {
        if (passTicks > Volatile.Read(ref _longestTicks))
        {
            Volatile.Write(ref _longestTicks, passTicks);
        }

        if (passTicks > _slowTicks)
        {
            Volatile.Write(ref _slowPasses, _slowPasses + 1);
            Volatile.Write(ref _slowPassTicks, _slowPassTicks + passTicks);
        }
    }

    /// <summary>The longest pass since the previous call, microseconds; starts the next interval.</summary>
    /// <remarks>A pass observed while this runs may count in either interval (or, if shorter, be lost): fine for a gauge.</remarks>
    public double TakeLongestMicroseconds() => Interlocked.Exchange(ref _longestTicks, 0) * 1_000_000.0 / Stopwatch.Frequency;
}
