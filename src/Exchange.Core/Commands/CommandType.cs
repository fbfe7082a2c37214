namespace Exchange.Core.Commands;

public enum CommandType : byte
{
    None = 0,
    NewOrder = 1,
    Cancel = 2,
    Replace = 3,

    /// <summary>
    /// Starts a new trading day: every resting Day order expires (a Cancelled event with
    /// <see cref="Events.CancelReason.Expired"/> each, books in instrument order, bids before asks, each side in
    /// priority order), then every client order id used so far may be used again, except those of orders still
    /// resting (GoodTillCancel). Issued by the venue itself, not by a FIX message, and journalled like any other
    /// command so replay sees the day boundary where it was.
    /// </summary>
    NewTradingDay = 4,

    /// <summary>
    /// Numbers the events that follow above <see cref="Command.Quantity"/> (an event id; lower than the last one given,
    /// it changes nothing) and emits no event. Issued by the venue at start when a session store holds reports of
    /// events the journal no longer has (it lost its tail, or was replaced), so that new events never repeat their
    /// ExecIDs; journalled like any other command, so a replay numbers later events as the run that issued it did.
    /// </summary>
    ReserveEventIds = 5,

    /// <summary>
    /// An OrderCancelRequest the gateway refused before the engine (a field it cannot accept): the engine answers with
    /// the CancelRejected event a refused <see cref="Cancel"/> gets, carrying the gateway's reason and, when the owner
    /// has a live order under OrigClOrdId, that order's unchanged state, which only the engine knows and the
    /// OrderCancelReject must report (its OrdStatus and OrderID). Changes nothing. See <see cref="RefusedRequests"/>.
    /// </summary>
    CancelRefused = 6,

    /// <summary>As <see cref="CancelRefused"/>, for an OrderCancelReplaceRequest.</summary>
    ReplaceRefused = 7,

    /// <summary>
    /// An OrderStatusRequest: ClOrdId, Side and InstrumentId name the owner's order, and <see cref="Command.OrigClOrdId"/>
    /// carries the request's own id (FIX OrdStatusReqID, empty when not given) for the answer to echo. The engine answers
    /// with one <see cref="Events.EventType.OrderStatus"/> event: the live order's current state; else the final state of
    /// the order of that side and instrument the id named today, if it has ended; else a refusal with
    /// <see cref="Events.RejectReason.UnknownOrder"/> and no order id. Changes nothing; journalled like any command, since
    /// its event takes an event id.
    /// </summary>
    StatusRequest = 8,

    /// <summary>
    /// An OrderMassCancelRequest: cancels every resting order of <see cref="Command.OwnerId"/> on
    /// <see cref="Command.InstrumentId"/> (-1: on every instrument), of <see cref="Command.Side"/> only unless it is
    /// <see cref="Domain.Side.None"/>. The engine emits one <see cref="Events.EventType.MassCancelReport"/> (the request's
    /// ClOrdId and how many orders it cancelled), then a Cancelled event per order
    /// (<see cref="Events.CancelReason.MassCancel"/>, the order's own ClOrdID) in the fixed order of a new trading day:
    /// instrument id, bids then asks, price then time priority. The request's ClOrdId is not recorded as used.
    /// </summary>
    MassCancel = 9,

    /// <summary>
    /// The owner's FIX session ended and its configuration asks for its orders to go with it (cancel on disconnect):
    /// cancels every resting order of <see cref="Command.OwnerId"/>, on every instrument, both sides, GoodTillCancel
    /// ones included, each reported by a Cancelled event (<see cref="Events.CancelReason.SessionDisconnected"/>, the
    /// order's own ClOrdID) in the order of <see cref="MassCancel"/>. Issued by the gateway, not by a FIX message, so
    /// there is no request to answer: no report comes first. The command's InstrumentId and Side are not read (the
    /// gateway sets -1 and None, as for a mass cancel of everything).
    /// </summary>
    CancelOnDisconnect = 10,

    /// <summary>
    /// <see cref="ReserveEventIds"/>, and order ids too: every order id handed out afterwards differs from any that the
    /// events between the engine's last event id and <see cref="Command.Quantity"/> could have named. Those are events a
    /// session store holds and the journal lost, so their orders are gone from the books, but clients saw their
    /// OrderIDs; each of those orders took one slot, so moving every slot's generation past that many allocations
    /// (<see cref="Engine.OrderStore.SkipGenerations"/>) is enough. Issued by the venue at start instead of
    /// <see cref="ReserveEventIds"/>, which older journals hold and which replays as it did (event ids only).
    /// </summary>
    ReserveEventAndOrderIds = 11,
}
