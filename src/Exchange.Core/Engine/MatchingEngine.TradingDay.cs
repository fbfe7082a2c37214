using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

// A new trading day: resting Day orders expire, then the day's client order ids are forgotten (the remaining live
// orders' ids are kept from reuse by the live index).
public sealed partial class MatchingEngine<TOrderList, TLevelIndex>
{
    /// <summary>
    /// Level slots of one book side, best first, listed before its Day orders are taken out: the level index must not
    /// change while it is visited. Sized to the level pool, so it grows only when the pool has grown (never per order).
    /// </summary>
    private int[] _expiryLevels = [];

    /// <summary>
    /// Expires the Day orders of every book that has some, in a fixed order that depends on the book alone (instrument
    /// id, bids then asks, price then time priority), so every strategy combination and a replay emit the same events.
    /// </summary>
    private void ProcessNewTradingDay(in Command command)
    {
        for (int instrument = 0; instrument < _books.Length; instrument++)
        {
            ref BookSides<TLevelIndex> book = ref _books[instrument];
            if (book.DayOrders == 0)
            {
                continue;
            }

            ExpireDayOrders(ref book.Bids, in command);
            ExpireDayOrders(ref book.Asks, in command);
            book.Version++;
        }

        _usedClOrdIds.StartNewDay();

        // Every order still live was indexed under an id of an earlier day, which the new day's set does not hold.
        _day++;
        _carriedLiveOrders = _clOrdIds.Count;
    }

    private void ExpireDayOrders(ref TLevelIndex side, in Command command)
    {
        int levelCount = side.Count;
        if (levelCount == 0)
        {
            return;
        }

        if (_expiryLevels.Length < levelCount)
        {
            _expiryLevels = new int[Math.Max(levelCount, _levels.Levels.Length)];
        }

        var lister = new LevelLister(_expiryLevels);
        side.VisitFromBest(ref lister);

        // Nothing is allocated while orders expire, so the links array cannot be replaced under the walk.
        OrderListLinks[] links = _orders.Links;
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
                }

                slot = next;
            }
        }
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
