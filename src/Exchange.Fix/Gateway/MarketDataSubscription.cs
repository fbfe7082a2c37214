using Exchange.Core.Domain;

namespace Exchange.Fix.Gateway;

/// <summary>One instrument of a MarketDataRequest (35=V), as the host's market-data publisher needs it.</summary>
public struct MarketDataSubscription
{
    /// <summary>MDReqID (262), held in the same inline 32-byte form as client order ids.</summary>
    public ClOrdId MdReqId;

    /// <summary>SubscriptionRequestType (263): '0' snapshot, '1' snapshot + updates, '2' unsubscribe.</summary>
    public byte SubscriptionRequestType;

    /// <summary>MarketDepth (264): 0 = all published levels, n = top n.</summary>
    public int MarketDepth;

    public int InstrumentId;

    /// <summary>The MDEntryTypes (269) asked for: <see cref="Bids"/>, <see cref="Offers"/> or both.</summary>
    public byte EntryTypes;

    /// <summary>
    /// Which logon of the session asked (<see cref="GatewaySession.Logins"/>): a subscription belongs to one logon, so
    /// one the publisher learns of after that logon ended is stale and dropped, whatever connection came next.
    /// </summary>
    public int Login;

    /// <summary>MDEntryType 0 (bid) in <see cref="EntryTypes"/>.</summary>
    public const byte Bids = 1;

    /// <summary>MDEntryType 1 (offer) in <see cref="EntryTypes"/>.</summary>
    public const byte Offers = 2;
}
