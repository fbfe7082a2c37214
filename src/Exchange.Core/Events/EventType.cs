namespace Exchange.Core.Events;

public enum EventType : byte
{
    None = 0,

    /// <summary>A new order passed validation (it may trade immediately after this event).</summary>
    Accepted = 1,

    /// <summary>A new order failed validation; the book is unchanged.</summary>
    Rejected = 2,

    /// <summary>One side of one trade. Each trade yields two events with the same trade id, taker first.</summary>
    Trade = 3,

    /// <summary>The order's remaining quantity left the book; <see cref="EngineEvent.CancelReason"/> says why.</summary>
    Cancelled = 4,

    /// <summary>A cancel/replace took effect. Trades may follow if the replaced order became marketable.</summary>
    Replaced = 5,

    /// <summary>A cancel or replace request failed; the book is unchanged. <see cref="EngineEvent.SourceCommand"/> says which.</summary>
    CancelRejected = 6,

    /// <summary>
    /// An order's state, reported without any change: the answer to a <see cref="Commands.CommandType.StatusRequest"/>
    /// (whose OrdStatusReqID is in <see cref="EngineEvent.OrigClOrdId"/>), or to a new order sent as a possible resend
    /// (<see cref="Commands.Command.PossibleResend"/>) whose client id names an order of the same owner (no order is
    /// entered, no id is recorded). A live order is reported as it stands; one that ended today with its final quantities,
    /// no leaves, how it ended in <see cref="EngineEvent.CancelReason"/> (None: filled) and no price or terms. A status
    /// request that names neither gets one with <see cref="EngineEvent.RejectReason"/> UnknownOrder and order id 0. FIX:
    /// an ExecutionReport with ExecType I (Order Status).
    /// </summary>
    OrderStatus = 7,

    /// <summary>
    /// The answer to a <see cref="Commands.CommandType.MassCancel"/>: the request's ClOrdId, InstrumentId (-1 for every
    /// instrument) and Side, and in <see cref="EngineEvent.AffectedOrders"/> how many orders it cancelled (their
    /// Cancelled events follow it). With a <see cref="EngineEvent.RejectReason"/> it cancelled nothing. FIX: an
    /// OrderMassCancelReport (35=r).
    /// </summary>
    MassCancelReport = 8,
}
