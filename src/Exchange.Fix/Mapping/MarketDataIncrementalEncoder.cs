using Exchange.Core.MarketData;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>
/// Encodes the body of a MarketDataIncrementalRefresh (35=X) that turns one <see cref="BookDepth"/> into the next,
/// per side and keyed by price: MDReqID 262, NoMDEntries 268, then per entry MDUpdateAction 279 (0 new, 1 change,
/// 2 delete), MDEntryType 269, Symbol 55, MDEntryPx 270, and for new/change MDEntrySize 271 and NumberOfOrders 346,
/// then MDEntryPositionNo 290. No allocation.
/// </summary>
/// <remarks>
/// Only the top MarketDepth levels count: a price that leaves them is deleted, one that enters them is new.
/// Entries are ordered so both kinds of client end with the same book: a client keyed by price applies them in any
/// order; a client keeping positions applies them in order, because per side the deletes come first, from the worst
/// previous position up (earlier deletes never shift later ones), then new and changed levels from the best current
/// position down (every position above is final when an entry is inserted at its 290).
/// </remarks>
public static class MarketDataIncrementalEncoder
{
    /// <summary>Largest body: every previous level deleted and every current level new, on both sides.</summary>
    public const int MaxBodyLength = 256 + (4 * BookDepth.MaxLevels * MarketDataEntries.MaxEntryLength);

    private const byte New = (byte)'0';
    private const byte Change = (byte)'1';
    private const byte Delete = (byte)'2';

    /// <summary>Writes the refresh and returns its length; 0 (nothing written) when the visible levels are equal.</summary>
    /// <param name="entryTypes">
    /// The sides asked for (<see cref="Gateway.MarketDataSubscription.EntryTypes"/>): a side not asked for has no levels.
    /// </param>
    public static int EncodeBody(
        Span<byte> destination, ReadOnlySpan<byte> mdReqId, ReadOnlySpan<byte> symbol, in BookDepth previous, in BookDepth current,
        int marketDepth, int priceDecimals, byte entryTypes)
    {
        const byte bid = Gateway.MarketDataSubscription.Bids;
        const byte offer = Gateway.MarketDataSubscription.Offers;
        Span<Entry> entries = stackalloc Entry[4 * BookDepth.MaxLevels];
        int count = Diff(
            previous.Bids, MarketDataEntries.Levels(previous.BidCount, marketDepth, entryTypes, bid),
            current.Bids, MarketDataEntries.Levels(current.BidCount, marketDepth, entryTypes, bid),
            MarketDataEntries.Bid, entries);
        count += Diff(
            previous.Asks, MarketDataEntries.Levels(previous.AskCount, marketDepth, entryTypes, offer),
            current.Asks, MarketDataEntries.Levels(current.AskCount, marketDepth, entryTypes, offer),
            MarketDataEntries.Offer, entries[count..]);
        if (count == 0)
        {
            return 0;
        }

        var w = new FixMessageWriter(destination);
        w.AddSpan(FixTags.MDReqID, mdReqId);
        w.AddInt(FixTags.NoMDEntries, count);
        foreach (ref readonly Entry e in entries[..count])
        {
            w.AddChar(FixTags.MDUpdateAction, e.Action);
            w.AddChar(FixTags.MDEntryType, e.Side);
            w.AddSpan(FixTags.Symbol, symbol);
            w.AddPrice(FixTags.MDEntryPx, e.Level.Price, priceDecimals);
            if (e.Action != Delete)
            {
                w.AddInt(FixTags.MDEntrySize, e.Level.Quantity);
                w.AddInt(FixTags.NumberOfOrders, e.Level.OrderCount);
            }

            w.AddInt(FixTags.MDEntryPositionNo, e.Position);
        }

        return w.Length;
    }

    /// <summary>One side's entries (at most 2 × MaxLevels); levels are few, so plain nested scans beat anything clever.</summary>
    private static int Diff(in BookDepth.Levels before, int beforeCount, in BookDepth.Levels after, int afterCount, byte side, Span<Entry> output)
    {
        int n = 0;
        for (int i = beforeCount - 1; i >= 0; i--)
        {
            if (Find(after, afterCount, before[i].Price) < 0)
            {
                output[n++] = new Entry(Delete, side, before[i], i + 1);
            }
        }

        for (int j = 0; j < afterCount; j++)
        {
            ref readonly DepthLevel level = ref after[j];
            int old = Find(before, beforeCount, level.Price);
            if (old < 0)
            {
                output[n++] = new Entry(New, side, level, j + 1);
            }
            else if (before[old].Quantity != level.Quantity || before[old].OrderCount != level.OrderCount)
            {
                output[n++] = new Entry(Change, side, level, j + 1);
            }
        }

        return n;
    }

    private static int Find(in BookDepth.Levels levels, int count, long price)
    {
        for (int i = 0; i < count; i++)
        {
            if (levels[i].Price == price)
            {
                return i;
            }
        }

        return -1;
    }

    private readonly record struct Entry(byte Action, byte Side, DepthLevel Level, int Position);
}
