using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Exchange.Fix.Session;

/// <summary>The production <see cref="IClock"/>: DateTime.UtcNow and Stopwatch. Thread-safe.</summary>
/// <remarks>
/// <see cref="Now"/> reads only the monotonic clock and adds the wall clock's offset from it, taken again at most
/// <see cref="OffsetRefreshNanos"/> after it was last taken: each read of either clock costs ~27–30 ns on this project's
/// VM, and every message in and out needs both times. Between refreshes the derived wall time follows the monotonic
/// clock, so it can differ from DateTime.UtcNow by what the system's time adjustment (NTP slewing) moved in that
/// time, microseconds at most; a step of the system clock shows within one refresh.
/// </remarks>
public sealed class SystemClock : IClock
{
    /// <summary>How long a taken wall-clock offset is used before it is taken again.</summary>
    public const long OffsetRefreshNanos = 100_000_000;

    // Before Instance: static fields are initialised in order, and the constructor reads the clock.
    private static readonly double NanosPerTimestampTick = 1_000_000_000.0 / Stopwatch.Frequency;

    public static readonly SystemClock Instance = new();

    // Written by whichever thread refreshes (racing refreshes both store a valid offset); a reader that sees a new
    // time with the previous offset uses an offset one refresh old, which is as good.
    private long _utcMinusMonotonic;
    private long _offsetTakenAtMonotonic;

    private SystemClock() => TakeOffset(MonotonicNanos);

    public long UtcNowNanos => (DateTime.UtcNow.Ticks - DateTime.UnixEpoch.Ticks) * 100;

    public long MonotonicNanos => (long)(Stopwatch.GetTimestamp() * NanosPerTimestampTick);

    public ClockReading Now
    {
        get
        {
            long monotonic = MonotonicNanos;
            long offset = Volatile.Read(ref _utcMinusMonotonic);
            if (monotonic - Volatile.Read(ref _offsetTakenAtMonotonic) >= OffsetRefreshNanos)
            {
                offset = TakeOffset(monotonic);
            }

            return new ClockReading(monotonic + offset, monotonic);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private long TakeOffset(long monotonic)
    {
        long offset = UtcNowNanos - monotonic;
        Volatile.Write(ref _utcMinusMonotonic, offset);
        Volatile.Write(ref _offsetTakenAtMonotonic, monotonic);
        return offset;
    }
}
