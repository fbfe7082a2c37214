using System.Diagnostics;

namespace Exchange.Host.Pipeline;

/// <summary>
/// BusySpin, Yielding and Sleeping for a ring processor: re-checks the barrier between steps of the
/// <see cref="IdleStrategy"/> ladder of its kind.
/// </summary>
internal sealed class BackOffWaitStrategy(WaitStrategyKind kind) : IWaitStrategy
{
    public long WaitFor(long next, SequenceBarrier barrier)
    {
        var idle = new IdleStrategy(kind);
        int timeout = barrier.IdleTimeoutMilliseconds;
        long started = timeout == Timeout.Infinite ? 0 : Stopwatch.GetTimestamp();
        while (true)
        {
            long available = barrier.HighestAvailable(next);
            if (available >= next || barrier.IsStopRequested(next) ||
                (timeout != Timeout.Infinite && Stopwatch.GetElapsedTime(started).TotalMilliseconds >= timeout))
            {
                return available;
            }

            idle.Idle(didWork: false);
        }
    }
}
