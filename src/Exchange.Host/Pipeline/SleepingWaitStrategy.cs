namespace Exchange.Host.Pipeline;

/// <summary>Spins, then yields, then Sleep(0), then 1 ms sleeps: an idle processor costs next to nothing.</summary>
internal sealed class SleepingWaitStrategy : IWaitStrategy
{
    private const int SpinTries = 100;
    private const int YieldTries = 200;
    private const int SleepZeroTries = 300;

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

            tries++;
            if (tries <= SpinTries)
            {
                Thread.SpinWait(1);
            }
            else if (tries <= YieldTries)
            {
                Thread.Yield();
            }
            else if (tries <= SleepZeroTries)
            {
                Thread.Sleep(0);
            }
            else
            {
                Thread.Sleep(1);
            }
        }
    }
}
