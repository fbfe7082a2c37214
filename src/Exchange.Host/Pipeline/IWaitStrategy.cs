namespace Exchange.Host.Pipeline;

/// <summary>
/// How an idle processor waits for its barrier. Implementations are sealed classes chosen at run time from
/// configuration: <see cref="SequenceBarrier.WaitFor"/> checks availability itself and calls the strategy only when
/// nothing is available, so the interface call lands on the idle path, never per event. Making the processor generic
/// over a struct strategy as well would multiply closed generic types for no measurable gain.
/// </summary>
internal interface IWaitStrategy
{
    /// <summary>
    /// Waits until <paramref name="barrier"/> has <paramref name="next"/> available, a stop is requested or the
    /// barrier's <see cref="SequenceBarrier.IdleTimeoutMilliseconds"/> has passed.
    /// </summary>
    /// <returns><see cref="SequenceBarrier.HighestAvailable"/> at the moment waiting ended.</returns>
    long WaitFor(long next, SequenceBarrier barrier);
}
