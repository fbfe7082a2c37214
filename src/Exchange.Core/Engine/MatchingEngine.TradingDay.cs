using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

// A new trading day: resting Day orders expire, the day's client order ids are forgotten, and the ids of the orders that
// rest on (GoodTillCancel) are recorded again as the new day's first ids.
public sealed partial class MatchingEngine<TOrderList, TLevelIndex>
{
    /// <summary>
    /// Level slots of one book side, best first, listed before its Day orders are taken out: the level index must not
    /// change while it is visited. Sized to the level pool, so it grows only when the pool has grown (never per order).
    /// </summary>
    private int[] _expiryLevels = [];

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
            int expired = StartDayOnSide(ref book.Bids, in command) + StartDayOnSide(ref book.Asks, in command);
            if (expired != 0)
            {
                book.Version++;
            }
        }
    }

    /// <summary>Expires or carries each order of one side; returns how many expired.</summary>
    private int StartDayOnSide(ref TLevelIndex side, in Command command)
    {
        int levelCount = side.Count;
        if (levelCount == 0)
        {
            return 0;
        }

        if (_expiryLevels.Length < levelCount)
        {
            _expiryLevels = new int[Math.Max(levelCount, _levels.Levels.Length)];
        }

        var lister = new LevelLister(_expiryLevels);
        side.VisitFromBest(ref lister);

        // Nothing is allocated while orders expire, so the links array cannot be replaced under the walk.
        OrderListLinks[] links = _orders.Links;
        int expired = 0;
        for (int i = 0; i < levelCount; i++)
        {
            ref PriceLevel<TOrderList> priceLevel = ref _levels.Levels[_expiryLevels[i]];
            int slot = priceLevel.Orders.First(links);
            while (slot >= 0)
            {
                // Read before the order leaves the list (the contract's rule). Taking out the level's last order
                // releases the level, but then there is no next order and the level is not read again.
                int next = priceLevel.Orders.Next(links, slot);
                if (_orders[slot].TimeInForce == TimeInForce.Day)
                {
                    Expire(slot, ref side, in command);
                    expired++;
                }
                else
                {
                    Carry(ref _orders[slot]);
                }

                slot = next;
            }
        }

        return expired;
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

    private struct LevelLister(int[] levels) : ILevelVisitor
    {
        private int _count;

        public bool Visit(long price, int level)
        {
            levels[_count++] = level;
            return true;
        }
    }
}
