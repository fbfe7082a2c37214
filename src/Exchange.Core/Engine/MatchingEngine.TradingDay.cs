using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;

namespace Exchange.Core.Engine;

// A new trading day: resting Day orders expire, then the day's client order ids are forgotten (the remaining live
// orders' ids are kept from reuse by the live index, and recorded as the day's when the orders leave it).
public sealed partial class MatchingEngine<TOrderList, TLevelIndex>
{
    /// <summary>
    /// Expires the Day orders of every book that has some, in a fixed order that depends on the book alone (instrument
    /// id, bids then asks, price then time priority), so every strategy combination and a replay emit the same events.
    /// A book of GoodTillCancel orders alone costs nothing: what a carried order needs is done when it leaves the book
    /// (<see cref="SettleCarried"/>), not here.
    /// </summary>
    private void ProcessNewTradingDay(in Command command)
    {
        // The expiring orders are the ending day's; their ids are forgotten with it, so none needs settling.
        _carriedLiveOrders = 0;
        for (int instrument = 0; instrument < _books.Length; instrument++)
        {
            ref BookSides<TLevelIndex> book = ref _books[instrument];
            if (book.DayOrders == 0)
            {
                continue;
            }

            var expiry = new DayOrderExpiry(command);
            VisitSide(ref book.Bids, ref expiry);
            VisitSide(ref book.Asks, ref expiry);
            book.Version++;
        }

        if (_usedClOrdIds.StartNewDay())
        {
            // The stamps wrapped (once in about four billion ids): an old stamp could read as one of the new day's.
            var drop = new StampDrop();
            for (int instrument = 0; instrument < _books.Length; instrument++)
            {
                VisitSide(ref _books[instrument].Bids, ref drop);
                VisitSide(ref _books[instrument].Asks, ref drop);
            }
        }

        // Every order still live was indexed under an id of an earlier day, which the new day's set does not hold.
        _carriedLiveOrders = _clOrdIds.Count;
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

    private struct DayOrderExpiry(Command command) : IRestingOrderVisitor
    {
        private readonly Command _command = command;

        public readonly void Visit(MatchingEngine<TOrderList, TLevelIndex> engine, int slot, ref TLevelIndex side)
        {
            if (engine._orders[slot].TimeInForce == TimeInForce.Day)
            {
                engine.Expire(slot, ref side, in _command);
            }
        }
    }

    private struct StampDrop : IRestingOrderVisitor
    {
        public readonly void Visit(MatchingEngine<TOrderList, TLevelIndex> engine, int slot, ref TLevelIndex side) =>
            engine._orders[slot].UsedIdStamp = 0;
    }
}
