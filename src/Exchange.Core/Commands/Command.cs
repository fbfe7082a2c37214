using Exchange.Core.Domain;

namespace Exchange.Core.Commands;

/// <summary>
/// One instruction to the engine, written in place into a ring slot and journalled as is. Everything the engine
/// needs is in here (including the time), so replaying the same commands rebuilds the same state.
/// </summary>
/// <remarks>
/// Field use by <see cref="Type"/>:
/// NewOrder: Instrument, Owner, ClOrdId, Side, OrderType, TimeInForce, Price (ignored for market), Quantity,
/// PossibleResend, SelfTradePrevention.
/// Cancel: Instrument, Owner, ClOrdId (of this request), OrigClOrdId (the order to cancel), Side.
/// Replace: as Cancel plus the new Price, Quantity and SelfTradePrevention. OrderType and TimeInForce, when set (non-zero), must equal the
/// order's own: a replace cannot change them, and one that tries is refused rather than half applied. Zero means the
/// request did not say (TimeInForce is optional in FIX), as in journals written before the check.
/// NewTradingDay: Timestamp only (when the venue started the day; the expiry reports' TransactTime).
/// ReserveEventIds, ReserveEventAndOrderIds: Quantity (the event id the next events are numbered above), Timestamp.
/// CancelRefused, ReplaceRefused: as Cancel, with the gateway's <see cref="Events.RejectReason"/> in Quantity
/// (<see cref="RefusedRequests"/>).
/// StatusRequest: Instrument, Owner, ClOrdId (the order asked about), Side, OrigClOrdId (the request's OrdStatusReqID,
/// or empty).
/// MassCancel: Owner, ClOrdId (of this request), Instrument (-1 for every instrument), Side (None for both).
/// CancelOnDisconnect: Owner; Instrument -1, Side None.
/// </remarks>
public struct Command
{
    public CommandType Type;
    public Side Side;
    public OrderType OrderType;
    public TimeInForce TimeInForce;

    /// <summary>
    /// NewOrder only: the client says this order may have been sent before (it got no answer). A possible resend whose
    /// client id names one of the owner's live orders is answered with that order's current state instead of a reject
    /// (<see cref="Events.EventType.OrderStatus"/>); one whose id is new is an ordinary new order. Kept in the command,
    /// so the journal replays the same answer.
    /// </summary>
    /// <remarks>A byte in what was padding after the four one-byte fields: the command's size does not change.</remarks>
    public bool PossibleResend;

    /// <summary>
    /// NewOrder and Replace: what the order does when it would trade with a resting order of the same owner (the
    /// owner's session setting when the gateway mapped it). In the command, so the journal replays the same trades
    /// whatever the configuration is at the next start. Another byte of what was padding.
    /// </summary>
    public SelfTradePrevention SelfTradePrevention;

    /// <summary>Dense instrument id (<see cref="Instrument.Id"/>).</summary>
    public int InstrumentId;

    /// <summary>Dense id of the submitting party (the FIX session); client order ids are unique per owner.</summary>
    public int OwnerId;

    /// <summary>Limit price in price units; ignored for market orders.</summary>
    public long Price;

    /// <summary>Order quantity (for Replace: the new total order quantity, FIX semantics).</summary>
    public long Quantity;

    /// <summary>Gateway receive time, nanoseconds since the Unix epoch; echoed in events as TransactTime.</summary>
    public long Timestamp;

    /// <summary>Position of this command in the inbound sequence (ring or journal); echoed in events.</summary>
    public long Sequence;

    public ClOrdId ClOrdId;

    public ClOrdId OrigClOrdId;
}
