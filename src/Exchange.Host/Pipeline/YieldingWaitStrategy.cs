namespace Exchange.Host.Pipeline;

/// <summary>Spins a little, then yields the core on every retry.</summary>
internal sealed class YieldingWaitStrategy : IWaitStrategy
{
    private const int SpinTries = 100;

    public long WaitFor(long next, SequenceBarrier barrier)
    {
        int tries = 0;
        while (true)
        {
            long available = barrier.HighestAvailable(next);
            if (available >= next || barrier.IsStopRequested(next))
            {
                return available;
            }

            if (tries < SpinTries)
            {
                tries++;
                Thread.SpinWait(1);
            }
            else
            {
                Thread.Yield();
            }
        }
    }
}
