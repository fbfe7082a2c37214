using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;

namespace Exchange.Core.Engine;

// A new trading day: resting Day orders expire, the day's client order ids are forgotten, and the ids of the orders that
// rest on (GoodTillCancel) are recorded again as the new day's first ids.
public sealed partial class MatchingEngine<TOrderList, TLevelIndex>
{
    /// <summary>
    /// Visits every resting order, book by book in a fixed order that depends on the books alone (instrument id, bids then
    /// asks, price then time priority), so every strategy combination and a replay emit the same events and record the
    /// same ids: a Day order expires; any other is carried into the new day under its id.
    /// </summary>
    /// <remarks>
    /// Why carried ids are recorded again: an order resting today holds its id today. Recorded, the id cannot be reused
    /// by a cancel (whose id is checked against today's set only), and an order that ends today is answered "too late to
    /// cancel" like any other, and no live order keeps a stamp of an earlier day (so none can outlive a stamp wrap).
    /// The cost is one pass over the resting orders once a day, and the carried ids count towards the day's
    /// <see cref="EngineOptions.MaxClOrdIdsPerDay"/>. They always fit while the limit stays the same (each resting
    /// order's id was recorded on the day before, and a day records no more than the limit). Only a journal replayed
    /// under a lower limit (which the venue refuses to start with) can leave some out: those are known to the live
    /// index only (see <see cref="IsTaken"/>), and unknown once they end.
    /// </remarks>
    private void ProcessNewTradingDay(in Command command)
    {
        _usedClOrdIds.StartNewDay();
        for (int instrument = 0; instrument < _books.Length; instrument++)
        {
            ref BookSides<TLevelIndex> book = ref _books[instrument];
            var dayStart = new DayStart(command);
            VisitSide(ref book.Bids, ref dayStart);
            VisitSide(ref book.Asks, ref dayStart);
            if (dayStart.Expired != 0)
            {
                book.Version++;
            }
        }
    }

    /// <summary>
    /// Records a resting order's id as used today, unless the day's ids are full; then the order keeps no stamp (0 is
    /// never one), so no stamp of an earlier day is left to mark an id of a later one.
    /// </summary>
    private void Carry(ref OrderSlot order)
    {
        ulong groupHash = ClOrdIdHash.Group(order.OwnerId, order.ClOrdId);
        // Two live orders of one owner never share an id, and only carried ids are recorded yet, so it is never found.
        order.UsedIdStamp =
            !_usedClOrdIds.IsFull && !_usedClOrdIds.Contains(groupHash, order.OwnerId, order.ClOrdId, out int freeBucket)
                ? _usedClOrdIds.Record(freeBucket, groupHash, order.OwnerId, order.ClOrdId, order.OrderId, order.InstrumentId)
                : 0;
    }

    private void Expire(int slot, ref TLevelIndex side, in Command command)
    {
        ref OrderSlot order = ref _orders[slot];
        Unrest(slot, ref side);
        UnindexLive(ref order, slot);
        order.LeavesQuantity = 0;
        Emit(EventType.Cancelled, in command, ref order).CancelReason = CancelReason.Expired;
        _orders.Release(slot); // nothing to record under its id: the new day forgets them
    }

    /// <summary>Expires a Day order, carries any other.</summary>
    private struct DayStart(Command command) : IRestingOrderVisitor
    {
        private readonly Command _command = command;

        public int Expired { get; private set; }

        public void Visit(MatchingEngine<TOrderList, TLevelIndex> engine, int slot, ref TLevelIndex side)
        {
            if (engine._orders[slot].TimeInForce == TimeInForce.Day)
            {
                engine.Expire(slot, ref side, in _command);
                Expired++;
            }
            else
            {
                engine.Carry(ref engine._orders[slot]);
            }
        }
    }
}
