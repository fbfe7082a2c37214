using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;

namespace Exchange.Core.Engine;

// Owner-wide cancels: a mass cancel (every resting order of one owner, on one instrument or all, of one side or both)
// and a cancel on disconnect (all of them) take orders out of the book the same way, for different reasons.
public sealed partial class MatchingEngine<TOrderList, TLevelIndex>
{
    /// <summary>
    /// The report first (its count filled in at the end, so the client learns the outcome before the orders' reports),
    /// then a Cancelled event per order in the fixed order of <see cref="VisitSide"/>. An instrument id out of range (the
    /// gateway maps symbols, so only a bad command) is refused with nothing cancelled.
    /// </summary>
    private void ProcessMassCancel(in Command command)
    {
        int first = command.InstrumentId;
        int last = command.InstrumentId;
        if (command.InstrumentId < 0)
        {
            (first, last) = (0, _books.Length - 1);
        }
        else if (command.InstrumentId >= _books.Length)
        {
            ref EngineEvent refused = ref Refuse(in command, RejectReason.UnknownInstrument);
            refused.Type = EventType.MassCancelReport;
            refused.AffectedOrders = 0;
            return;
        }

        int report = _events.Count;
        ref EngineEvent summary = ref Refuse(in command, RejectReason.None);
        summary.Type = EventType.MassCancelReport;
        summary.AffectedOrders = 0;
        _events[report].AffectedOrders = CancelOwnerOrders(in command, first, last, command.Side, CancelReason.MassCancel);
    }

    /// <summary>
    /// Cancels every resting order of the command's owner on instruments <paramref name="first"/> to
    /// <paramref name="last"/>, of <paramref name="side"/> unless it is <see cref="Side.None"/>, each reported under its
    /// own ClOrdID with <paramref name="reason"/>, instrument by instrument, bids then asks, price then time priority.
    /// Returns how many it cancelled.
    /// </summary>
    private int CancelOwnerOrders(in Command command, int first, int last, Side side, CancelReason reason)
    {
        var cancel = new OwnerCancel(command, reason);
        for (int instrument = first; instrument <= last; instrument++)
        {
            ref BookSides<TLevelIndex> book = ref _books[instrument];
            int before = cancel.Cancelled;
            if (side != Side.Sell)
            {
                VisitSide(ref book.Bids, ref cancel);
            }

            if (side != Side.Buy)
            {
                VisitSide(ref book.Asks, ref cancel);
            }

            if (cancel.Cancelled != before)
            {
                book.Version++;
            }
        }

        return cancel.Cancelled;
    }

    /// <summary>Takes a resting order out as cancelled for <paramref name="reason"/>, reported under its own ClOrdID.</summary>
    private void CancelOwnersOrder(int slot, ref TLevelIndex side, in Command command, CancelReason reason)
    {
        Unrest(slot, ref side);
        EndOutOfBook(slot, in command, reason);
    }

    /// <summary>
    /// The rest of cancelling an order already out of its price level: out of the live index, reported Cancelled under
    /// its own ClOrdID for <paramref name="reason"/>, its carried id settled, its slot released.
    /// </summary>
    private void EndOutOfBook(int slot, in Command command, CancelReason reason)
    {
        ref OrderSlot order = ref _orders[slot];
        UnindexLive(ref order, slot);
        order.LeavesQuantity = 0;
        Emit(EventType.Cancelled, in command, ref order).CancelReason = reason;
        if (_carriedLiveOrders != 0)
        {
            SettleCarried(ref order);
        }

        ReleaseEnded(slot, reason);
    }

    /// <summary>Cancels the orders of the command's owner (the walk visits only the sides the command names).</summary>
    private struct OwnerCancel(Command command, CancelReason reason) : IRestingOrderVisitor
    {
        private readonly Command _command = command;
        private readonly CancelReason _reason = reason;

        public int Cancelled { get; private set; }

        public void Visit(MatchingEngine<TOrderList, TLevelIndex> engine, int slot, ref TLevelIndex side)
        {
            if (engine._orders[slot].OwnerId == _command.OwnerId)
            {
                engine.CancelOwnersOrder(slot, ref side, in _command, _reason);
                Cancelled++;
            }
        }
    }
}
