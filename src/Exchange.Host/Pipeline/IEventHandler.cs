namespace Exchange.Host.Pipeline;

/// <summary>
/// Consumes ring slots in sequence order on one processor thread. Implement it on a struct: the processor is generic
/// over the handler type, so the JIT specialises the loop and calls <see cref="OnEvent"/> directly (often inlined).
/// </summary>
/// <typeparam name="T">The slot type.</typeparam>
internal interface IEventHandler<T>
    where T : struct
{
    /// <summary>
    /// Handles one slot. <paramref name="evt"/> refers to the slot itself: read it, or write it when a later consumer
    /// gated on this one expects it. Do not keep the reference after returning; the producer reuses the slot once
    /// every consumer has passed it. <paramref name="endOfBatch"/> is true for the last slot currently available,
    /// the moment to flush buffered work (journal writes, socket flushes).
    /// </summary>
    void OnEvent(ref T evt, long sequence, bool endOfBatch);
}
