namespace Exchange.Host.Pipeline;

/// <summary>
/// Runs <typeparamref name="THandler"/> over a ring's slots in sequence order, in batches of whatever is available.
/// </summary>
/// <remarks>
/// <para>Threading: <see cref="Run"/> runs on the processor's own thread, the only thread that touches the handler.
/// The processor's <see cref="EventProcessor.Sequence"/> is advanced once per batch (a release store), which is what
/// producers and dependent processors observe.</para>
/// <para>The handler is a struct field called directly: no interface dispatch per event. Read its state through
/// <see cref="Handler"/> only after the processor has stopped (<see cref="EventProcessor.Join"/>).</para>
/// </remarks>
internal sealed class BatchEventProcessor<T, THandler> : EventProcessor
    where T : struct
    where THandler : struct, IEventHandler<T>
{
    private readonly SequenceRing<T> _ring;
    private THandler _handler;

    public BatchEventProcessor(SequenceRing<T> ring, THandler handler, SequenceBarrier barrier, string name, int? cpu)
        : base(name, barrier, cpu)
    {
        _ring = ring;
        _handler = handler;
    }

    /// <summary>The handler instance the processor runs (read after the processor stopped).</summary>
    public ref THandler Handler => ref _handler;

    public override int RunAvailable()
    {
        long next = Sequence.Value + 1;
        long available = Barrier.HighestAvailable(next);
        if (available < next)
        {
            return 0;
        }

        for (long sequence = next; sequence <= available; sequence++)
        {
            _handler.OnEvent(ref _ring[sequence], sequence, sequence == available);
        }

        Sequence.SetValue(available);
        return (int)(available - next + 1);
    }

    protected override void Run()
    {
        SequenceBarrier barrier = Barrier;
        PublicationSignal signal = barrier.Sequencer.Signal;
        long next = Sequence.Value + 1;
        while (true)
        {
            long available = barrier.WaitFor(next);
            long stopAfter = barrier.StopAfter;
            if (available > stopAfter)
            {
                available = stopAfter;
            }

            if (available < next)
            {
                if (barrier.IsStopRequested(next))
                {
                    return;
                }

                // Nothing to consume: the wait stopped at the idle timeout (or woke for a change that made nothing
                // consumable yet), and idle work runs only on this branch, never between slots.
                IdleWork?.Invoke();
                continue;
            }

            for (long sequence = next; sequence <= available; sequence++)
            {
                _handler.OnEvent(ref _ring[sequence], sequence, sequence == available);
            }

            Sequence.SetValue(available);

            // Producers blocked on a full ring spin, but dependent processors may sleep on the signal.
            signal.NotifyIfWaiting();
            next = available + 1;
        }
    }
}
