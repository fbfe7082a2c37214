using Exchange.Core.MarketData;

namespace Exchange.Core.Strategies;

/// <summary>
/// Strategy family 3: hands book depth from the matcher (the single writer) to reader threads.
/// </summary>
/// <remarks>
/// Contract: exactly one thread calls <see cref="Publish"/>; any number of threads call <see cref="TryRead"/>
/// concurrently with it. A read returns a depth that was published as a whole: never a mix of two publishes
/// (no torn snapshot). Implementations are classes with a public parameterless constructor so the host can create them
/// by name; one call per published book is the cost the host pays, not one per order operation.
/// </remarks>
public interface IMarketDataStore
{
    /// <summary>Prepares storage for instruments 0..instrumentCount-1. Called once, before any publish or read.</summary>
    void Initialize(int instrumentCount);

    /// <summary>Makes <paramref name="depth"/> the current depth of <see cref="BookDepth.InstrumentId"/>. Writer thread only.</summary>
    void Publish(in BookDepth depth);

    /// <summary>Copies the current depth of an instrument; false when nothing was published for it yet.</summary>
    bool TryRead(int instrumentId, ref BookDepth destination);
}
