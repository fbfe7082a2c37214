namespace Exchange.Fix.Mapping;

/// <summary>
/// A decoded MarketDataRequest (35=V). <see cref="MdReqId"/> points into the <see cref="Codec.FixMessage"/> it came
/// from (valid until that message is parsed again); instrument ids are in the span the caller passed to the reader.
/// </summary>
public readonly ref struct MarketDataRequest
{
    public MarketDataRequest(ReadOnlySpan<byte> mdReqId, byte subscriptionRequestType, int marketDepth, int entryTypeMask, int symbolCount)
    {
        MdReqId = mdReqId;
        SubscriptionRequestType = subscriptionRequestType;
        MarketDepth = marketDepth;
        EntryTypeMask = entryTypeMask;
        SymbolCount = symbolCount;
    }

    /// <summary>MDReqID (262).</summary>
    public ReadOnlySpan<byte> MdReqId { get; }

    /// <summary>SubscriptionRequestType (263): '0' snapshot, '1' snapshot + updates, '2' unsubscribe.</summary>
    public byte SubscriptionRequestType { get; }

    /// <summary>MarketDepth (264): 0 full book, 1 top of book, n levels.</summary>
    public int MarketDepth { get; }

    /// <summary>Bit (1 &lt;&lt; d) set for each requested MDEntryType (269) digit d: bit 0 bid, bit 1 offer, bit 2 trade.</summary>
    public int EntryTypeMask { get; }

    /// <summary>Number of instrument ids written to the caller's span.</summary>
    public int SymbolCount { get; }
}
