using Exchange.Core.Engine;
using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Host.Venue;

/// <summary>
/// Copies a book's top levels from the engine into the market-data store. The engine stamps the book's version (it
/// counts state changes, and replay reproduces it), which lets the market-data publisher skip unchanged books.
/// </summary>
/// <remarks>
/// Threading: the matcher thread only (the store's single writer); at start-up the thread that replays the journal,
/// before the matcher starts. Allocation: none after construction (the depth buffer is reused).
/// </remarks>
internal sealed class BookPublisher
{
    private readonly IMatchingEngine _engine;
    private readonly IMarketDataStore _store;
    private readonly int _instrumentCount;
    private BookDepth _depth;

    public BookPublisher(IMatchingEngine engine, IMarketDataStore store, int instrumentCount)
    {
        _engine = engine;
        _store = store;
        _instrumentCount = instrumentCount;
    }

    /// <summary>Publishes one book as it is after command <paramref name="commandSequence"/>; ignores unknown ids.</summary>
    public void Publish(int instrumentId, long commandSequence)
    {
        if ((uint)instrumentId >= (uint)_instrumentCount)
        {
            return;
        }

        _engine.CopyDepth(instrumentId, ref _depth);
        _depth.CommandSequence = commandSequence;
        _store.Publish(in _depth);
    }

    /// <summary>Publishes every book (after journal replay, so subscribers see the recovered state).</summary>
    public void PublishAll(long commandSequence)
    {
        for (int id = 0; id < _instrumentCount; id++)
        {
            Publish(id, commandSequence);
        }
    }
}
