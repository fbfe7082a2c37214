using System.Runtime.CompilerServices;

namespace Exchange.Fix.Gateway;

/// <summary>
/// A per-logon limit of application messages per second, as a generic cell rate algorithm: one "theoretical arrival
/// time" that each counted message pushes one interval (a second / the rate, rounded up) further. A logon that has
/// been quiet may send a whole second's allowance at once; after that one message per interval. A message the
/// throttle refuses does not count; one it must take whatever the limit (<see cref="Take"/>) counts all the same, so
/// the messages after it wait the longer.
/// </summary>
/// <remarks>One long of state and no allocation; <see cref="TryTake"/> is a compare and an add. Not thread-safe: one
/// connection's reading thread owns it.</remarks>
internal struct MessageThrottle
{
    /// <summary>The highest limit; above it the interval (a whole number of nanoseconds) would be too coarse.</summary>
    public const int MaxPerSecond = 1_000_000;

    private const long Second = 1_000_000_000;

    /// <summary>Nanoseconds one message uses of the allowance; 0 when there is no limit.</summary>
    private readonly long _interval;

    /// <summary>How far ahead of now the theoretical arrival may run: a second's allowance less one message's interval.</summary>
    private readonly long _tolerance;

    private long _theoreticalArrival;

    /// <param name="perSecond">The limit, at most <see cref="MaxPerSecond"/>; 0 (or less) for none.</param>
    public MessageThrottle(int perSecond)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(perSecond, MaxPerSecond);
        PerSecond = Math.Max(perSecond, 0);
        _interval = perSecond > 0 ? (Second + perSecond - 1) / perSecond : 0;
        _tolerance = (PerSecond - 1) * _interval;
        _theoreticalArrival = long.MinValue;
    }

    /// <summary>Messages a second this throttle allows (0: no limit).</summary>
    public int PerSecond { get; }

    /// <summary>True when there is no limit: every message passes and nothing is counted.</summary>
    public readonly bool IsUnlimited => _interval == 0;

    /// <summary>True, and counted, when a message arriving at <paramref name="monotonicNanos"/> is within the limit.</summary>
    public bool TryTake(long monotonicNanos)
    {
        long arrival = Math.Max(_theoreticalArrival, monotonicNanos);
        if (arrival - monotonicNanos > _tolerance)
        {
            return false;
        }

        _theoreticalArrival = arrival + _interval;
        return true;
    }

    /// <summary>Counts a message that is never refused (see the summary).</summary>
    public void Take(long monotonicNanos) => _theoreticalArrival = Math.Max(_theoreticalArrival, monotonicNanos) + _interval;
}
