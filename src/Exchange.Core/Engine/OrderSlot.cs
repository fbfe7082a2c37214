using Exchange.Core.Domain;

namespace Exchange.Core.Engine;

/// <summary>The state of one live order, held in a pooled slot of <see cref="OrderStore"/>.</summary>
internal struct OrderSlot
{
    /// <summary>(generation &lt;&lt; 32) | slot; 0 while the slot is free.</summary>
    public long OrderId;

    /// <summary><see cref="ClOrdIdIndex.Hash"/> of (OwnerId, ClOrdId), kept so index removals never re-read the id.</summary>
    public ulong ClOrdIdHash;

    public int InstrumentId;
    public int OwnerId;

    /// <summary>The price-level slot the order rests in; meaningful only while it rests.</summary>
    public int Level;

    public Side Side;
    public OrderType OrderType;
    public TimeInForce TimeInForce;

    /// <summary>Limit price; 0 for market orders.</summary>
    public long Price;
    public long OrderQuantity;
    public long LeavesQuantity;
    public long CumulativeQuantity;
    public long CumulativeNotional;
    public ClOrdId ClOrdId;

    /// <summary>
    /// The stamp today's used-id set gave <see cref="ClOrdId"/> (<see cref="UsedClOrdIds.Record"/>), so the order's end
    /// can be marked there without a probe; one of an earlier day (an order carried over, until it leaves the book or its id) is ignored. After the id, in what was
    /// padding.
    /// </summary>
    public uint UsedIdStamp;
}
