using Exchange.Core.Domain;
using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

/// <summary>The two sides of one instrument's book, held inline in the engine's book array (direct strategy calls).</summary>
internal struct BookSides<TLevelIndex>
    where TLevelIndex : struct, IPriceLevelIndex
{
    public TLevelIndex Bids;
    public TLevelIndex Asks;

    /// <summary>Counts state changes of this book; copied into <see cref="MarketData.BookDepth.Version"/>.</summary>
    public long Version;

    /// <summary>
    /// Day orders resting in this book. A new trading day walks only the books that have some: a book of GoodTillCancel
    /// orders costs the day roll nothing, however deep it is.
    /// </summary>
    public int DayOrders;

    public void Initialize(Instrument instrument)
    {
        Bids.Initialize(bestIsHighest: true, instrument.MinPrice, instrument.MaxPrice, instrument.TickSize);
        Asks.Initialize(bestIsHighest: false, instrument.MinPrice, instrument.MaxPrice, instrument.TickSize);
    }
}
