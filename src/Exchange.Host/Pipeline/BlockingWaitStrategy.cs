namespace Exchange.Host.Pipeline;

/// <summary>Sleeps on the ring's <see cref="PublicationSignal"/>, woken by publishers, advancing dependencies, halts.</summary>
internal sealed class BlockingWaitStrategy : IWaitStrategy
{
    private readonly PublicationSignal _signal;

    public BlockingWaitStrategy(PublicationSignal signal) => _signal = signal;

    public long WaitFor(long next, SequenceBarrier barrier) => _signal.WaitFor(next, barrier);
}
