using System.Diagnostics;

namespace Exchange.LoadClient.Measurement;

/// <summary>
/// The fixed-rate send plan: order n is due at start + n / rate seconds, in Stopwatch ticks, computed from n (never
/// by adding intervals, so rounding does not drift). A late sender does not shift later orders: they stay due at
/// their planned times, and latency measured from those times includes the time an order waited to be sent
/// (coordinated omission correction).
/// </summary>
internal readonly struct RateSchedule
{
    private readonly long _startTicks;
    private readonly long _ratePerSecond;
    private readonly long _frequency;

    public RateSchedule(long startTicks, long ratePerSecond, long ticksPerSecond)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ratePerSecond);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ticksPerSecond);
        _startTicks = startTicks;
        _ratePerSecond = ratePerSecond;
        _frequency = ticksPerSecond;
    }

    public long StartTicks => _startTicks;

    public long IntendedTicks(long n) => _startTicks + (long)((Int128)n * _frequency / _ratePerSecond);

    /// <summary>
    /// Waits until <see cref="Stopwatch.GetTimestamp"/> reaches <paramref name="ticks"/>: yields the CPU while more
    /// than <paramref name="yieldAboveTicks"/> remain (so a slow schedule does not starve the venue on a small
    /// machine), then busy-spins to the deadline.
    /// </summary>
    public static void WaitUntil(long ticks, long yieldAboveTicks)
    {
        long now;
        while ((now = Stopwatch.GetTimestamp()) < ticks)
        {
            if (ticks - now > yieldAboveTicks)
            {
                Thread.Yield();
            }
            else
            {
                Thread.SpinWait(8);
            }
        }
    }
}
