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

    /// <summary>
    /// Engine-assigned order id; 0 when the command was rejected before an order existed. A refused new order whose
    /// client id names a live order carries that order's id and state.
    /// </summary>
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

    /// <summary>
    /// On replace and cancel outcomes: the id the request referred to. On an <see cref="EventType.OrderStatus"/> that
    /// answers a status request: the request's own id (FIX OrdStatusReqID), or empty.
    /// </summary>
    public ClOrdId OrigClOrdId;

    /// <summary>On <see cref="EventType.MassCancelReport"/>: how many orders the mass cancel cancelled (kept in <see cref="OrderQuantity"/>).</summary>
    public long AffectedOrders
    {
        readonly get => OrderQuantity;
        set => OrderQuantity = value;
    }

    /// <summary>
    /// Describes a refused command: <see cref="EventType.Rejected"/> for a new order (or unknown command), echoing its
    /// terms; <see cref="EventType.CancelRejected"/> for a cancel or replace, carrying only the request's ids (the caller
    /// adds the order's state when the order exists). A status request or mass cancel comes out as Rejected too, echoing
    /// the request; the caller retypes it (<see cref="EventType.OrderStatus"/>, <see cref="EventType.MassCancelReport"/>). Used by the engine and by the gateway, which refuses some commands
    /// before they reach the engine, so both answer alike.
    /// </summary>
    public static EngineEvent Refusal(in Command command, RejectReason reason)
    {
        CommandType source = RefusedRequests.RequestOf(in command);
        var e = new EngineEvent
        {
            Type = EventType.Rejected,
            SourceCommand = source,
            RejectReason = reason,
            Side = command.Side,
            InstrumentId = command.InstrumentId,
            OwnerId = command.OwnerId,
            Timestamp = command.Timestamp,
            CommandSequence = command.Sequence,
            ClOrdId = command.ClOrdId,
            OrigClOrdId = command.OrigClOrdId,
        };
        if (source is CommandType.Cancel or CommandType.Replace)
        {
            e.Type = EventType.CancelRejected;
            return e;
        }

        e.OrderType = command.OrderType;
        e.TimeInForce = command.TimeInForce;
        e.Price = command.Price;
        e.OrderQuantity = command.Quantity;
        return e;
    }
}
