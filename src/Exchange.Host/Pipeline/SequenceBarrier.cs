namespace Exchange.Host.Pipeline;

/// <summary>
/// What one processor may consume: published sequences of its ring, and (when it depends on other processors) only
/// those every dependency has already processed. Also carries the processor's stop request.
/// </summary>
/// <remarks>
/// One barrier per processor. <see cref="WaitFor"/> checks availability inline and calls the wait strategy only when
/// nothing is available, so the strategy's (virtual) call is paid when idle, never per event.
/// </remarks>
internal sealed class SequenceBarrier
{
    private const long NoStop = long.MaxValue;

    private readonly Sequencer _sequencer;
    private readonly Sequence[] _dependencies;
    private readonly IWaitStrategy _waitStrategy;

    // The processor stops once it has processed this sequence; NoStop while running, -2 for "stop now".
    private long _stopAfter = NoStop;

    public SequenceBarrier(Sequencer sequencer, Sequence[] dependencies, IWaitStrategy waitStrategy)
    {
        _sequencer = sequencer;
        _dependencies = dependencies;
        _waitStrategy = waitStrategy;
    }

    public Sequencer Sequencer => _sequencer;

    /// <summary>The sequence this barrier's processor stops after (<see cref="long.MaxValue"/> while running).</summary>
    public long StopAfter => Volatile.Read(ref _stopAfter);

    /// <summary>
    /// How long a wait may last before it returns empty-handed so the processor can do its idle work
    /// (<see cref="EventProcessor.SetIdleWork"/>); <see cref="Timeout.Infinite"/> (the default) waits until there is
    /// something to consume or a stop. Set before the processor starts.
    /// </summary>
    public int IdleTimeoutMilliseconds { get; set; } = Timeout.Infinite;

    /// <summary>
    /// Returns the highest sequence (at least <paramref name="next"/>) the processor may consume, waiting as the
    /// strategy says; returns less than <paramref name="next"/> only when a stop was requested or the wait reached
    /// <see cref="IdleTimeoutMilliseconds"/>.
    /// </summary>
    public long WaitFor(long next)
    {
        long available = HighestAvailable(next);
        if (available >= next)
        {
            return available;
        }

        return IsStopRequested(next) ? available : _waitStrategy.WaitFor(next, this);
    }

    /// <summary>Non-blocking: the highest consumable sequence, <paramref name="next"/> - 1 when none is.</summary>
    public long HighestAvailable(long next)
    {
        if (_dependencies.Length != 0)
        {
            // Dependencies only pass published slots, so their minimum is consumable as is.
            return Sequence.Minimum(_dependencies, next - 1);
        }

        if (!_sequencer.IsPublished(next))
        {
            return next - 1;
        }

        return _sequencer.HighestPublished(next, _sequencer.Cursor.Value);
    }

    /// <summary>True when the processor must not wait for <paramref name="next"/> any more.</summary>
    public bool IsStopRequested(long next) => next > Volatile.Read(ref _stopAfter);

    /// <summary>Stop after finishing the batch in hand.</summary>
    public void RequestHalt() => RequestStopAfter(-2);

    /// <summary>Keep processing until <paramref name="lastSequence"/> has been processed, then stop.</summary>
    public void RequestStopAfter(long lastSequence)
    {
        Volatile.Write(ref _stopAfter, lastSequence);
        _sequencer.Signal.WakeAll();
    }
}
