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

    /// <summary>How many orders are due at <paramref name="nowTicks"/>: the count of n with IntendedTicks(n) at or before it.</summary>
    public long DueBy(long nowTicks)
    {
        if (nowTicks < _startTicks)
        {
            return 0;
        }

        // The division gives a close first guess (several orders can share a tick when the rate exceeds the clock's
        // frequency); the two loops settle it exactly as IntendedTicks truncates.
        long last = (long)((Int128)(nowTicks - _startTicks) * _ratePerSecond / _frequency);
        while (IntendedTicks(last + 1) <= nowTicks)
        {
            last++;
        }

        while (IntendedTicks(last) > nowTicks)
        {
            last--;
        }

        return last + 1;
    }

    /// <summary>
    /// Waits until <see cref="Stopwatch.GetTimestamp"/> reaches <paramref name="ticks"/>: yields the CPU while more
    /// than <paramref name="yieldAboveTicks"/> remain (so a slow schedule does not starve the venue on a small
    /// machine), then busy-spins to the deadline. With <paramref name="yieldWhileSpinning"/> the spin yields too, each
    /// pass: a reader thread that shares the CPU (the blocking-read client pinned to one core) then runs as soon as a
    /// reply wakes it, instead of when the scheduler next takes the CPU from the spinning sender (milliseconds).
    /// </summary>
    public static void WaitUntil(long ticks, long yieldAboveTicks, bool yieldWhileSpinning = false)
    {
        long now;
        while ((now = Stopwatch.GetTimestamp()) < ticks)
        {
            if (yieldWhileSpinning || ticks - now > yieldAboveTicks)
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
