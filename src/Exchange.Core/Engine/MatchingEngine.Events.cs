using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;

namespace Exchange.Core.Engine;

// Writing events into the reusable buffer. Each helper returns a ref so callers can set the one or two fields that
// differ; the ref is valid until the next event is added.
public sealed partial class MatchingEngine<TOrderList, TLevelIndex>
{
    /// <summary>An event about <paramref name="order"/>, caused by <paramref name="command"/>, carrying its current state.</summary>
    private ref EngineEvent Emit(EventType type, in Command command, ref OrderSlot order)
    {
        ref EngineEvent e = ref _events.Add();
        e.Type = type;
        e.SourceCommand = command.Type;
        e.Timestamp = command.Timestamp;
        e.CommandSequence = command.Sequence;
        e.Side = order.Side;
        e.OrderType = order.OrderType;
        e.TimeInForce = order.TimeInForce;
        e.InstrumentId = order.InstrumentId;
        e.OwnerId = order.OwnerId;
        e.OrderId = order.OrderId;
        e.Price = order.Price;
        e.OrderQuantity = order.OrderQuantity;
        e.LeavesQuantity = order.LeavesQuantity;
        e.CumulativeQuantity = order.CumulativeQuantity;
        e.CumulativeNotional = order.CumulativeNotional;
        e.ClOrdId = order.ClOrdId;
        return ref e;
    }

    private void EmitTrade(in Command command, ref OrderSlot order, long price, long quantity, long tradeId)
    {
        ref EngineEvent e = ref Emit(EventType.Trade, in command, ref order);
        e.LastPrice = price;
        e.LastQuantity = quantity;
        e.TradeId = tradeId;
    }

    private ref EngineEvent EmitReplaced(in Command command, ref OrderSlot order, in ClOrdId origClOrdId)
    {
        ref EngineEvent e = ref Emit(EventType.Replaced, in command, ref order);
        e.OrigClOrdId = origClOrdId;
        return ref e;
    }

    /// <summary>A refused new order (or unknown command type): echoes the command, no order id.</summary>
    private void EmitRejected(in Command command, RejectReason reason) => Refuse(in command, reason);

    /// <summary>Appends the refusal of a command, keeping the event id the buffer assigned.</summary>
    private ref EngineEvent Refuse(in Command command, RejectReason reason)
    {
        ref EngineEvent e = ref _events.Add();
        long eventId = e.EventId;
        e = EngineEvent.Refusal(in command, reason);
        e.EventId = eventId;
        return ref e;
    }

    /// <summary>
    /// A refused cancel/replace: the request's ids and, when the order exists (slot >= 0), its unchanged state. When it
    /// does not but the id named an order of today that has ended, the event carries that order's id and how it ended
    /// (no leaves), and an unknown order becomes <see cref="RejectReason.TooLateToCancel"/>. A replace resent after it
    /// was carried out (OrigClOrdId replaced away from the order that now has the request's ClOrdId) is a
    /// <see cref="RejectReason.DuplicateClOrdId"/> with that order's state, or how it ended, not an unknown order; also
    /// when a later replace has moved the order on from the request's ClOrdId (A to B, then B to C, then A to B again),
    /// live or ended since under C (today's ids link B to C, where how the order ended is kept).
    /// </summary>
    private void EmitCancelRejected(in Command command, RejectReason reason, int slot)
    {
        UsedIdOrder ended = default;
        bool hasEnded = false;
        if (slot < 0 && reason == RejectReason.UnknownOrder && TryFindReplacedLive(command.OwnerId, command.OrigClOrdId, out int replaced) &&
            _orders[replaced].InstrumentId == command.InstrumentId && IsOrWasIdOf(replaced, command.OwnerId, command.ClOrdId))
        {
            slot = replaced;
            reason = RejectReason.DuplicateClOrdId;
        }
        else if (slot < 0 && reason == RejectReason.UnknownOrder && TryFindEndedReplaceResult(in command, out ended))
        {
            hasEnded = true;
            reason = RejectReason.DuplicateClOrdId;
        }
        else if (slot < 0)
        {
            hasEnded = TryFindEnded(in command, out ended);
            if (hasEnded && reason == RejectReason.UnknownOrder)
            {
                reason = RejectReason.TooLateToCancel;
            }
        }

        ref EngineEvent e = ref Refuse(in command, reason);
        if (slot >= 0)
        {
            ref OrderSlot order = ref _orders[slot];
            e.OrderType = order.OrderType;
            e.TimeInForce = order.TimeInForce;
            e.OrderId = order.OrderId;
            e.Price = order.Price;
            e.OrderQuantity = order.OrderQuantity;
            e.LeavesQuantity = order.LeavesQuantity;
            e.CumulativeQuantity = order.CumulativeQuantity;
            e.CumulativeNotional = order.CumulativeNotional;
        }
        else if (hasEnded)
        {
            e.OrderId = ended.OrderId;
            e.CancelReason = ended.EndReason;
        }
    }
}
