using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

// Book mechanics: sweeping the opposite side, resting and un-resting an order, the FOK fillability check.
public sealed partial class MatchingEngine<TOrderList, TLevelIndex>
{
    /// <summary>
    /// Trades the taker in <paramref name="slot"/> against <paramref name="opposite"/> from the best level while it
    /// crosses <paramref name="limit"/> and has quantity left. Each trade prices at the resting level and yields two Trade
    /// events (taker, then maker) with one trade id. Fully filled makers leave the book and the client-id index.
    /// </summary>
    private void Match(int slot, ref TLevelIndex opposite, long limit, in Command command)
    {
        ref OrderSlot taker = ref _orders[slot];
        bool takerIsBuy = taker.Side == Side.Buy;
        OrderListLinks[] links = _orders.Links;
        PriceLevel<TOrderList>[] levels = _levels.Levels;

        while (taker.LeavesQuantity > 0 && opposite.TryGetBest(out long price, out int level))
        {
            if (!OrderValidation.Crosses(takerIsBuy, limit, price))
            {
                return;
            }

            ref PriceLevel<TOrderList> priceLevel = ref levels[level];
            while (taker.LeavesQuantity > 0)
            {
                int makerSlot = priceLevel.Orders.First(links);
                if (makerSlot < 0)
                {
                    break;
                }

                ref OrderSlot maker = ref _orders[makerSlot];
                long quantity = Math.Min(taker.LeavesQuantity, maker.LeavesQuantity);
                Fill(ref taker, price, quantity);
                Fill(ref maker, price, quantity);
                priceLevel.TotalQuantity -= quantity;
                long tradeId = ++_lastTradeId;
                EmitTrade(in command, ref taker, price, quantity, tradeId);
                EmitTrade(in command, ref maker, price, quantity, tradeId);

                if (maker.LeavesQuantity == 0)
                {
                    CountResting(ref maker, -1);
                    priceLevel.Orders.Remove(links, makerSlot);
                    UnindexLive(ref maker, makerSlot);
                    if (_carriedLiveOrders != 0)
                    {
                        SettleCarried(ref maker);
                    }

                    ReleaseEnded(makerSlot, CancelReason.None);
                }
            }

            if (priceLevel.Orders.Count == 0)
            {
                opposite.Remove(price);
                _levels.Release(level);
            }
        }
    }

    private static void Fill(ref OrderSlot order, long price, long quantity)
    {
        order.LeavesQuantity -= quantity;
        order.CumulativeQuantity += quantity;
        order.CumulativeNotional += price * quantity;
    }

    /// <summary>Appends the order at the back of its price level on <paramref name="side"/>, creating the level if needed.</summary>
    private void Rest(int slot, ref TLevelIndex side)
    {
        long price = _orders[slot].Price;
        if (!side.TryGet(price, out int level))
        {
            level = _levels.Allocate(price);
            side.Add(price, level);
        }

        ref OrderSlot order = ref _orders[slot];
        ref PriceLevel<TOrderList> priceLevel = ref _levels.Levels[level];
        priceLevel.Orders.AddLast(_orders.Links, slot);
        priceLevel.TotalQuantity += order.LeavesQuantity;
        order.Level = level;
        CountResting(ref order, +1);
    }

    /// <summary>Takes a resting order out of its level (dropping the level when it empties). The slot stays allocated.</summary>
    private void Unrest(int slot, ref TLevelIndex side)
    {
        ref OrderSlot order = ref _orders[slot];
        ref PriceLevel<TOrderList> priceLevel = ref _levels.Levels[order.Level];
        priceLevel.Orders.Remove(_orders.Links, slot);
        priceLevel.TotalQuantity -= order.LeavesQuantity;
        CountResting(ref order, -1);
        if (priceLevel.Orders.Count == 0)
        {
            side.Remove(priceLevel.Price);
            _levels.Release(order.Level);
        }
    }

    /// <summary>Keeps the book's <see cref="BookSides{TLevelIndex}.DayOrders"/> in step as an order starts (+1) or stops (-1) resting.</summary>
    private void CountResting(ref OrderSlot order, int change)
    {
        if (order.TimeInForce == TimeInForce.Day)
        {
            _books[order.InstrumentId].DayOrders += change;
        }
    }

    /// <summary>FOK pre-check: does <paramref name="opposite"/> hold at least <paramref name="quantity"/> within the limit?</summary>
    private bool CanFillCompletely(ref TLevelIndex opposite, bool takerIsBuy, long limit, long quantity)
    {
        var visitor = new FillableVisitor(_levels.Levels, takerIsBuy, limit, quantity);
        opposite.VisitFromBest(ref visitor);
        return visitor.Available >= quantity;
    }

    private struct FillableVisitor(PriceLevel<TOrderList>[] levels, bool takerIsBuy, long limit, long needed) : ILevelVisitor
    {
        public long Available;

        public bool Visit(long price, int level)
        {
            if (!OrderValidation.Crosses(takerIsBuy, limit, price))
            {
                return false;
            }

            Available += levels[level].TotalQuantity;
            return Available < needed;
        }
    }
}
