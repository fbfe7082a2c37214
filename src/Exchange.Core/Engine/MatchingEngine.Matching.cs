using System.Runtime.CompilerServices;
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
    /// A maker of the taker's own owner is handled by the command's <see cref="SelfTradePrevention"/> instead of traded.
    /// </summary>
    /// <returns>True when self-trade prevention stopped the taker: its remainder must be cancelled, not rested.</returns>
    /// <remarks>
    /// Compiled twice (<see cref="ISelfTradeCheck"/>): a command without prevention runs a loop with no trace of it, as
    /// before prevention existed, so the common case pays nothing per resting order met.
    /// </remarks>
    private bool Match(int slot, ref TLevelIndex opposite, long limit, in Command command) =>
        command.SelfTradePrevention == SelfTradePrevention.None
            ? Match<WithoutSelfTradeCheck>(slot, ref opposite, limit, in command)
            : Match<WithSelfTradeCheck>(slot, ref opposite, limit, in command);

    private bool Match<TCheck>(int slot, ref TLevelIndex opposite, long limit, in Command command)
        where TCheck : struct, ISelfTradeCheck
    {
        ref OrderSlot taker = ref _orders[slot];
        bool takerIsBuy = taker.Side == Side.Buy;
        OrderListLinks[] links = _orders.Links;
        PriceLevel<TOrderList>[] levels = _levels.Levels;

        SelfTradePrevention prevention = command.SelfTradePrevention;
        bool stopped = false;

        while (!stopped && taker.LeavesQuantity > 0 && opposite.TryGetBest(out long price, out int level))
        {
            if (!OrderValidation.Crosses(takerIsBuy, limit, price))
            {
                return false;
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
                if (default(TCheck).Enabled && maker.OwnerId == taker.OwnerId)
                {
                    if (prevention != SelfTradePrevention.CancelIncoming)
                    {
                        CancelSelfTradeMaker(ref priceLevel, makerSlot, in command);
                    }

                    if (prevention != SelfTradePrevention.CancelResting)
                    {
                        stopped = true;
                        break;
                    }

                    continue;
                }

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

        return stopped;
    }

    /// <summary>Whether <see cref="Match{TCheck}"/> looks for the taker's own orders: a constant per instantiation.</summary>
    private interface ISelfTradeCheck
    {
        bool Enabled { get; }
    }

    private struct WithoutSelfTradeCheck : ISelfTradeCheck
    {
        public readonly bool Enabled => false;
    }

    private struct WithSelfTradeCheck : ISelfTradeCheck
    {
        public readonly bool Enabled => true;
    }

    /// <summary>
    /// Takes out a resting order its own owner's incoming order met, reported as cancelled by self-trade prevention. It
    /// leaves the level in place even when emptied, unlike <see cref="Unrest"/>: <see cref="Match{TCheck}"/> holds it and
    /// drops it once done with it.
    /// </summary>
    private void CancelSelfTradeMaker(ref PriceLevel<TOrderList> priceLevel, int makerSlot, in Command command)
    {
        TakeOutOfLevel(makerSlot, ref _orders[makerSlot], ref priceLevel);
        EndOutOfBook(makerSlot, in command, CancelReason.SelfTradePrevention);
    }

    /// <summary>Cancels what is left of a taker that self-trade prevention stopped (it never rests); the order is done.</summary>
    private void CancelSelfTradeTaker(int slot, in Command command)
    {
        ref OrderSlot taker = ref _orders[slot];
        taker.LeavesQuantity = 0;
        Emit(EventType.Cancelled, in command, ref taker).CancelReason = CancelReason.SelfTradePrevention;
        ReleaseEnded(slot, CancelReason.SelfTradePrevention);
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
        TakeOutOfLevel(slot, ref order, ref priceLevel);
        if (priceLevel.Orders.Count == 0)
        {
            side.Remove(priceLevel.Price);
            _levels.Release(order.Level);
        }
    }

    /// <summary>Takes a resting order out of <paramref name="priceLevel"/> (its orders, total and the Day-order count); the level stays.</summary>
    /// <remarks>Inlined: it is <see cref="Unrest"/>'s body, on every cancel and repricing replace.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void TakeOutOfLevel(int slot, ref OrderSlot order, ref PriceLevel<TOrderList> priceLevel)
    {
        priceLevel.Orders.Remove(_orders.Links, slot);
        priceLevel.TotalQuantity -= order.LeavesQuantity;
        CountResting(ref order, -1);
    }

    /// <summary>Keeps the book's <see cref="BookSides{TLevelIndex}.DayOrders"/> in step as an order starts (+1) or stops (-1) resting.</summary>
    private void CountResting(ref OrderSlot order, int change)
    {
        if (order.TimeInForce == TimeInForce.Day)
        {
            _books[order.InstrumentId].DayOrders += change;
        }
    }

    /// <summary>
    /// FOK pre-check: does <paramref name="opposite"/> hold at least <paramref name="quantity"/> within the limit that
    /// the order would trade with? With self-trade prevention the owner's own orders are not counted, and under
    /// <see cref="SelfTradePrevention.CancelIncoming"/> or <see cref="SelfTradePrevention.CancelBoth"/> nothing
    /// behind the first of them is either, since matching would stop there: the order then fills completely or is
    /// killed before anything happens, as without prevention.
    /// </summary>
    private bool CanFillCompletely(ref TLevelIndex opposite, bool takerIsBuy, long limit, long quantity, in Command command)
    {
        if (command.SelfTradePrevention == SelfTradePrevention.None)
        {
            var visitor = new FillableVisitor(_levels.Levels, takerIsBuy, limit, quantity);
            opposite.VisitFromBest(ref visitor);
            return visitor.Available >= quantity;
        }

        var orders = new FillableByOthersVisitor(
            this, takerIsBuy, limit, quantity, command.OwnerId, command.SelfTradePrevention != SelfTradePrevention.CancelResting);
        opposite.VisitFromBest(ref orders);
        return orders.Available >= quantity;
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

    /// <summary>The FOK check order by order, leaving out <paramref name="owner"/>'s orders (and, if it says so, stopping at the first).</summary>
    private struct FillableByOthersVisitor(
        MatchingEngine<TOrderList, TLevelIndex> engine, bool takerIsBuy, long limit, long needed, int owner, bool stopAtOwn) : ILevelVisitor
    {
        public long Available;

        public bool Visit(long price, int level)
        {
            if (!OrderValidation.Crosses(takerIsBuy, limit, price))
            {
                return false;
            }

            OrderListLinks[] links = engine._orders.Links;
            ref PriceLevel<TOrderList> priceLevel = ref engine._levels.Levels[level];
            for (int slot = priceLevel.Orders.First(links); slot >= 0; slot = priceLevel.Orders.Next(links, slot))
            {
                ref OrderSlot order = ref engine._orders[slot];
                if (order.OwnerId == owner)
                {
                    if (stopAtOwn)
                    {
                        return false;
                    }

                    continue;
                }

                Available += order.LeavesQuantity;
                if (Available >= needed)
                {
                    return false;
                }
            }

            return true;
        }
    }
}
