using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>MDReqRejReason (281) values the venue sends.</summary>
public enum MarketDataRejectReason : byte
{
    /// <summary>No 281 on the wire (no FIX value fits, e.g. an MDReqID too long to keep).</summary>
    None = 0,
    UnknownSymbol = (byte)'0',
    DuplicateMdReqId = (byte)'1',
    InsufficientBandwidth = (byte)'2',
    UnsupportedSubscriptionRequestType = (byte)'4',
    UnsupportedMarketDepth = (byte)'5',
    UnsupportedMdUpdateType = (byte)'6',
    UnsupportedAggregatedBook = (byte)'7',
    UnsupportedMdEntryType = (byte)'8',
}

/// <summary>Encodes the body of a MarketDataRequestReject (35=Y): MDReqID 262, MDReqRejReason 281, Text 58. No allocation.</summary>
public static class MarketDataRequestRejectEncoder
{
    public static int EncodeBody(Span<byte> destination, ReadOnlySpan<byte> mdReqId, MarketDataRejectReason reason, ReadOnlySpan<byte> text)
    {
        var w = new FixMessageWriter(destination);
        w.AddSpan(FixTags.MDReqID, mdReqId);
        if (reason != MarketDataRejectReason.None)
        {
            w.AddChar(FixTags.MDReqRejReason, (byte)reason);
        }

        if (!text.IsEmpty)
        {
            w.AddSpan(FixTags.Text, text);
        }

        return w.Length;
    }
}
