using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

// Visiting every resting order of a book side, for the commands that act on many orders at once (a new trading day,
// a mass cancel). Rare commands, off the per-order path: each costs a pass over the side.
public sealed partial class MatchingEngine<TOrderList, TLevelIndex>
{
    /// <summary>
    /// Level slots of one book side, best first, listed before its orders are visited: the level index must not change
    /// while it is visited. Sized to the level pool, so it grows only when the pool has grown (never per order).
    /// </summary>
    private int[] _walkLevels = [];

    /// <summary>What a walk does with each order; it may take the order out of the book.</summary>
    private interface IRestingOrderVisitor
    {
        void Visit(MatchingEngine<TOrderList, TLevelIndex> engine, int slot, ref TLevelIndex side);
    }

    /// <summary>
    /// Hands every order of <paramref name="side"/> to <paramref name="visitor"/>, best level first and each level in
    /// time priority: an order that depends on the book alone, so every strategy combination and a replay visit the
    /// same orders in the same order.
    /// </summary>
    private void VisitSide<TVisitor>(ref TLevelIndex side, ref TVisitor visitor)
        where TVisitor : struct, IRestingOrderVisitor
    {
        int levelCount = side.Count;
        if (levelCount == 0)
        {
            return;
        }

        if (_walkLevels.Length < levelCount)
        {
            _walkLevels = new int[Math.Max(levelCount, _levels.Levels.Length)];
        }

        var lister = new LevelLister(_walkLevels);
        side.VisitFromBest(ref lister);

        // A visitor may take orders out but never enters one, so no order slot is allocated and the links array cannot
        // be replaced under the walk.
        OrderListLinks[] links = _orders.Links;
        for (int i = 0; i < levelCount; i++)
        {
            ref PriceLevel<TOrderList> priceLevel = ref _levels.Levels[_walkLevels[i]];
            int slot = priceLevel.Orders.First(links);
            while (slot >= 0)
            {
                // Read before the order leaves the list (the contract's rule). Taking out the level's last order
                // releases the level, but then there is no next order and the level is not read again.
                int next = priceLevel.Orders.Next(links, slot);
                visitor.Visit(this, slot, ref side);
                slot = next;
            }
        }
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
