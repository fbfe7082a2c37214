using Exchange.Core.Domain;
using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

// Read-only views of the books: depth for market data (no allocation) and full order lists for tests (allocates).
public sealed partial class MatchingEngine<TOrderList, TLevelIndex>
{
    public void CopyDepth(int instrumentId, ref BookDepth depth)
    {
        ref BookSides<TLevelIndex> book = ref _books[instrumentId];
        depth.InstrumentId = instrumentId;
        depth.Version = book.Version;
        depth.CommandSequence = _lastCommandSequence;

        var bids = new DepthVisitor(depth.Bids, _levels.Levels);
        book.Bids.VisitFromBest(ref bids);
        depth.BidCount = bids.Count;

        var asks = new DepthVisitor(depth.Asks, _levels.Levels);
        book.Asks.VisitFromBest(ref asks);
        depth.AskCount = asks.Count;
    }

    public IReadOnlyList<RestingOrder> GetRestingOrders(int instrumentId, Side side)
    {
        ref BookSides<TLevelIndex> book = ref _books[instrumentId];
        var collector = new LevelCollector(new List<int>());
        if (side == Side.Buy)
        {
            book.Bids.VisitFromBest(ref collector);
        }
        else
        {
            book.Asks.VisitFromBest(ref collector);
        }

        var result = new List<RestingOrder>();
        OrderListLinks[] links = _orders.Links;
        foreach (int level in collector.Levels)
        {
            ref PriceLevel<TOrderList> priceLevel = ref _levels.Levels[level];
            for (int slot = priceLevel.Orders.First(links); slot >= 0; slot = priceLevel.Orders.Next(links, slot))
            {
                ref OrderSlot order = ref _orders[slot];
                result.Add(new RestingOrder(order.OrderId, order.OwnerId, order.ClOrdId, order.Side, order.Price,
                    order.OrderQuantity, order.LeavesQuantity, order.CumulativeQuantity));
            }
        }

        return result;
    }

    private ref struct DepthVisitor(Span<DepthLevel> destination, PriceLevel<TOrderList>[] levels) : ILevelVisitor
    {
        private readonly Span<DepthLevel> _destination = destination;

        public int Count;

        public bool Visit(long price, int level)
        {
            ref PriceLevel<TOrderList> priceLevel = ref levels[level];
            ref DepthLevel entry = ref _destination[Count++];
            entry.Price = price;
            entry.Quantity = priceLevel.TotalQuantity;
            entry.OrderCount = priceLevel.Orders.Count;
            return Count < _destination.Length;
        }
    }

    private struct LevelCollector(List<int> levels) : ILevelVisitor
    {
        public readonly List<int> Levels => levels;

        public readonly bool Visit(long price, int level)
        {
            levels.Add(level);
            return true;
        }
    }
}
