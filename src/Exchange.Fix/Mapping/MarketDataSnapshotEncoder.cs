using Exchange.Core.MarketData;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>
/// Encodes the body of a MarketDataSnapshotFullRefresh (35=W) from a <see cref="BookDepth"/>: MDReqID 262, Symbol 55,
/// NoMDEntries 268, then per level (bids best first, then offers best first) MDEntryType 269 (0 bid, 1 offer),
/// MDEntryPx 270, MDEntrySize 271, NumberOfOrders 346, MDEntryPositionNo 290 (1 = best). No allocation.
/// </summary>
/// <remarks>
/// MDPriceLevel (1023) is a FIX 5.0 tag the FIX 4.4 dictionary does not define; FIX 4.4's MDEntryPositionNo (290)
/// carries the same level number and validates.
/// </remarks>
public static class MarketDataSnapshotEncoder
{
    /// <summary>Largest body: two sides of <see cref="BookDepth.MaxLevels"/> entries plus the id and symbol.</summary>
    public const int MaxBodyLength = 256 + (2 * BookDepth.MaxLevels * MarketDataEntries.MaxEntryLength);

    /// <param name="marketDepth">MarketDepth (264) of the subscription: 0 all published levels, n the top n.</param>
    /// <param name="entryTypes">The sides asked for (<see cref="Gateway.MarketDataSubscription.EntryTypes"/>).</param>
    public static int EncodeBody(
        Span<byte> destination, ReadOnlySpan<byte> mdReqId, ReadOnlySpan<byte> symbol, in BookDepth depth, int marketDepth, int priceDecimals, byte entryTypes)
    {
        int bids = MarketDataEntries.Levels(depth.BidCount, marketDepth, entryTypes, Gateway.MarketDataSubscription.Bids);
        int asks = MarketDataEntries.Levels(depth.AskCount, marketDepth, entryTypes, Gateway.MarketDataSubscription.Offers);
        var w = new FixMessageWriter(destination);
        w.AddSpan(FixTags.MDReqID, mdReqId);
        w.AddSpan(FixTags.Symbol, symbol);
        w.AddInt(FixTags.NoMDEntries, bids + asks);
        for (int i = 0; i < bids; i++)
        {
            WriteEntry(ref w, MarketDataEntries.Bid, depth.Bids[i], i + 1, priceDecimals);
        }

        for (int i = 0; i < asks; i++)
        {
            WriteEntry(ref w, MarketDataEntries.Offer, depth.Asks[i], i + 1, priceDecimals);
        }

        return w.Length;
    }

    private static void WriteEntry(ref FixMessageWriter w, byte entryType, in DepthLevel level, int position, int priceDecimals)
    {
        w.AddChar(FixTags.MDEntryType, entryType);
        w.AddPrice(FixTags.MDEntryPx, level.Price, priceDecimals);
        w.AddInt(FixTags.MDEntrySize, level.Quantity);
        w.AddInt(FixTags.NumberOfOrders, level.OrderCount);
        w.AddInt(FixTags.MDEntryPositionNo, position);
    }
}
