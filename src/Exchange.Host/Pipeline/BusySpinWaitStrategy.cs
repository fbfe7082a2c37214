namespace Exchange.Host.Pipeline;

/// <summary>Spins with a CPU pause hint until data arrives.</summary>
internal sealed class BusySpinWaitStrategy : IWaitStrategy
{
    public long WaitFor(long next, SequenceBarrier barrier)
    {
        while (true)
        {
            long available = barrier.HighestAvailable(next);
            if (available >= next || barrier.IsStopRequested(next))
            {
                return available;
            }

            Thread.SpinWait(1);
        }
    }
}
