using System.Runtime.CompilerServices;

namespace Exchange.Fix.Gateway;

/// <summary>
/// A per-logon limit of application messages per second, as a generic cell rate algorithm: one "theoretical arrival
/// time" that each accepted message pushes one interval (a second / the rate) further. A logon that has been quiet may
/// send a whole second's allowance at once; after that one message per interval. A refused message does not count.
/// </summary>
/// <remarks>One long of state and no allocation; <see cref="TryTake"/> is a compare and an add. Not thread-safe: one
/// connection's reading thread owns it.</remarks>
internal struct MessageThrottle
{
    private const long Second = 1_000_000_000;

    /// <summary>Nanoseconds one message uses of the allowance; 0 when there is no limit.</summary>
    private readonly long _interval;

    /// <summary>How far ahead of now the theoretical arrival may run: a second's allowance less one message.</summary>
    private readonly long _tolerance;

    private long _theoreticalArrival;

    /// <param name="perSecond">The limit; 0 (or less) for none. At most one message per nanosecond.</param>
    public MessageThrottle(int perSecond)
    {
        PerSecond = Math.Max(perSecond, 0);
        _interval = perSecond > 0 ? Second / perSecond : 0;
        _tolerance = Second - _interval;
        _theoreticalArrival = long.MinValue;
    }

    /// <summary>Messages a second this throttle allows (0: no limit).</summary>
    public int PerSecond { get; }

    /// <summary>True, and counted, when a message arriving at <paramref name="monotonicNanos"/> is within the limit.</summary>
    /// <remarks>Inlined to one test on the order path of a session without a limit.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryTake(long monotonicNanos) => _interval == 0 || TryTakeLimited(monotonicNanos);

    private bool TryTakeLimited(long monotonicNanos)
    {
        long arrival = Math.Max(_theoreticalArrival, monotonicNanos);
        if (arrival - monotonicNanos > _tolerance)
        {
            return false;
        }

        _theoreticalArrival = arrival + _interval;
        return true;
    }
}
