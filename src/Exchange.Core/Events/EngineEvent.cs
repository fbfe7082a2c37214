using Exchange.Core.Commands;
using Exchange.Core.Domain;

namespace Exchange.Core.Events;

/// <summary>
/// One outcome of a command, addressed to one order's owner. Events are plain structs the engine writes into a
/// reusable buffer; the gateway turns each into an ExecutionReport or OrderCancelReject.
/// </summary>
public struct EngineEvent
{
    public EventType Type;
    public CommandType SourceCommand;
    public Side Side;
    public OrderType OrderType;
    public TimeInForce TimeInForce;
    public RejectReason RejectReason;
    public CancelReason CancelReason;

    public int InstrumentId;
    public int OwnerId;

    /// <summary>Engine-assigned order id; 0 when the command was rejected before an order existed.</summary>
    public long OrderId;

    /// <summary>The order's limit price (0 for market orders).</summary>
    public long Price;

    /// <summary>The order's current total quantity (after a replace, the new one).</summary>
    public long OrderQuantity;

    /// <summary>Quantity still open on the book; 0 once the order is done.</summary>
    public long LeavesQuantity;

    public long CumulativeQuantity;

    /// <summary>Sum of price × quantity over the order's fills, in price units; average price = this / CumulativeQuantity.</summary>
    public long CumulativeNotional;

    /// <summary>On <see cref="EventType.Trade"/>: the trade price (the resting order's price).</summary>
    public long LastPrice;

    /// <summary>On <see cref="EventType.Trade"/>: the traded quantity.</summary>
    public long LastQuantity;

    /// <summary>On <see cref="EventType.Trade"/>: engine-wide trade number, shared by both sides' events.</summary>
    public long TradeId;

    /// <summary>Engine-wide event number, strictly increasing; a natural ExecID.</summary>
    public long EventId;

    /// <summary>The causing command's <see cref="Command.Timestamp"/>.</summary>
    public long Timestamp;

    /// <summary>The causing command's <see cref="Command.Sequence"/>.</summary>
    public long CommandSequence;

    /// <summary>The order's client id. For a resting order hit by a taker, the resting order's own id.</summary>
    public ClOrdId ClOrdId;

    /// <summary>On replace and cancel outcomes: the id the request referred to.</summary>
    public ClOrdId OrigClOrdId;
}
