using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>Matching rules (priority, fills, sweeps, market, IOC, FOK, depth), each run on every strategy combination.</summary>
public class MatchingScenarioTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Limit_order_that_does_not_cross_is_accepted_and_rests(string combination)
    {
        var h = EngineHarness.For(combination);

        EngineEvent[] events = h.Buy("b1", -1, 5);

        EngineEvent accepted = Assert.Single(events);
        Assert.Equal(EventType.Accepted, accepted.Type);
        Assert.NotEqual(0, accepted.OrderId);
        Assert.Equal(5, accepted.LeavesQuantity);
        Assert.Equal(TestInstruments.P(-1), accepted.Price);
        Assert.Equal("b1", accepted.ClOrdId.ToString());
        RestingOrder resting = Assert.Single(h.Bids());
        Assert.Equal(accepted.OrderId, resting.OrderId);
        Assert.Equal(1, h.Engine.RestingOrderCount);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Same_price_orders_fill_in_time_order(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 3, owner: 1);
        h.Sell("s2", 1, 3, owner: 2);
        h.Sell("s3", 1, 3, owner: 3);

        EngineEvent[] events = h.Buy("b1", 1, 4, owner: 4);

        Assert.Equal([EventType.Accepted, EventType.Trade, EventType.Trade, EventType.Trade, EventType.Trade], events.Select(e => e.Type));
        Assert.Equal("s1", events[2].ClOrdId.ToString());
        Assert.Equal(3, events[2].LastQuantity);
        Assert.Equal("s2", events[4].ClOrdId.ToString());
        Assert.Equal(1, events[4].LastQuantity);
        Assert.Equal(["s2", "s3"], h.Asks().Select(o => o.ClOrdId.ToString()));
        Assert.Equal(2, h.Asks()[0].LeavesQuantity);
        Assert.Empty(h.Bids());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Better_price_fills_before_earlier_order(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("early", 1, 5);
        h.Buy("better", 2, 5);

        EngineEvent[] events = h.Sell("s", 0, 5, owner: 2);

        Assert.Equal("better", events[2].ClOrdId.ToString());
        Assert.Equal(TestInstruments.P(2), events[1].LastPrice);
        Assert.Equal(["early"], h.Bids().Select(o => o.ClOrdId.ToString()));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Trade_yields_taker_then_maker_with_one_trade_id_and_resting_price(string combination)
    {
        var h = EngineHarness.For(combination);
        EngineEvent maker = h.Sell("s1", 1, 10, owner: 7)[0];

        EngineEvent[] events = h.Buy("b1", 3, 4, owner: 8);

        EngineEvent takerTrade = events[1];
        EngineEvent makerTrade = events[2];
        Assert.Equal(EventType.Trade, takerTrade.Type);
        Assert.Equal(EventType.Trade, makerTrade.Type);
        Assert.Equal(takerTrade.TradeId, makerTrade.TradeId);
        Assert.NotEqual(0, takerTrade.TradeId);
        Assert.Equal(8, takerTrade.OwnerId);
        Assert.Equal(7, makerTrade.OwnerId);
        Assert.Equal(maker.OrderId, makerTrade.OrderId);
        Assert.Equal(TestInstruments.P(1), takerTrade.LastPrice);
        Assert.Equal(TestInstruments.P(1), makerTrade.LastPrice);
        Assert.Equal(TestInstruments.P(3), takerTrade.Price);
        Assert.Equal(4, takerTrade.LastQuantity);
        Assert.Equal(0, takerTrade.LeavesQuantity);
        Assert.Equal(4, takerTrade.CumulativeQuantity);
        Assert.Equal(4 * TestInstruments.P(1), takerTrade.CumulativeNotional);
        Assert.Equal(6, makerTrade.LeavesQuantity);
        Assert.Equal(4, makerTrade.CumulativeQuantity);
        Assert.Equal(Side.Sell, makerTrade.Side);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Partially_filled_taker_rests_its_remainder(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 0, 3);

        EngineEvent[] events = h.Buy("b1", 0, 5, owner: 2);

        Assert.Equal(3, events.Length);
        RestingOrder bid = Assert.Single(h.Bids());
        Assert.Equal(2, bid.LeavesQuantity);
        Assert.Equal(3, bid.CumulativeQuantity);
        Assert.Equal(5, bid.OrderQuantity);
        Assert.Empty(h.Asks());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Taker_sweeps_levels_up_to_its_limit_at_each_resting_price(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 2);
        h.Sell("s2", 2, 2);
        h.Sell("s3", 3, 2);
        h.Sell("s4", 4, 2);

        EngineEvent[] events = h.Buy("b1", 3, 10, owner: 2);

        EngineEvent[] takerTrades = events.Where(e => e.Type == EventType.Trade && e.OwnerId == 2).ToArray();
        Assert.Equal([TestInstruments.P(1), TestInstruments.P(2), TestInstruments.P(3)], takerTrades.Select(e => e.LastPrice));
        Assert.Equal([8, 6, 4], takerTrades.Select(e => e.LeavesQuantity));
        Assert.Equal(2 * (TestInstruments.P(1) + TestInstruments.P(2) + TestInstruments.P(3)), takerTrades[^1].CumulativeNotional);
        Assert.Equal(["s4"], h.Asks().Select(o => o.ClOrdId.ToString()));
        RestingOrder bid = Assert.Single(h.Bids());
        Assert.Equal(4, bid.LeavesQuantity);
        Assert.Equal(TestInstruments.P(3), bid.Price);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Market_order_remainder_is_cancelled_and_never_rests(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 2);
        h.Sell("s2", 50, 2);

        EngineEvent[] events = h.Market("m1", Side.Buy, 10, TimeInForce.GoodTillCancel, owner: 2);

        Assert.Equal([EventType.Accepted, EventType.Trade, EventType.Trade, EventType.Trade, EventType.Trade, EventType.Cancelled],
            events.Select(e => e.Type));
        EngineEvent cancelled = events[^1];
        Assert.Equal(CancelReason.MarketRemainder, cancelled.CancelReason);
        Assert.Equal(0, cancelled.LeavesQuantity);
        Assert.Equal(4, cancelled.CumulativeQuantity);
        Assert.Equal(0, cancelled.Price);
        Assert.Empty(h.Bids());
        Assert.Empty(h.Asks());
        Assert.Equal(0, h.Engine.RestingOrderCount);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Market_order_on_empty_side_is_accepted_then_cancelled(string combination)
    {
        var h = EngineHarness.For(combination);

        EngineEvent[] events = h.Market("m1", Side.Sell, 5, TimeInForce.ImmediateOrCancel);

        Assert.Equal([EventType.Accepted, EventType.Cancelled], events.Select(e => e.Type));
        Assert.Equal(CancelReason.MarketRemainder, events[1].CancelReason);
        Assert.Empty(h.Bids());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Immediate_or_cancel_trades_what_it_can_and_cancels_the_rest(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", 0, 3);
        h.Buy("b2", -5, 3);

        EngineEvent[] events = h.Sell("s1", -1, 10, TimeInForce.ImmediateOrCancel, owner: 2);

        Assert.Equal([EventType.Accepted, EventType.Trade, EventType.Trade, EventType.Cancelled], events.Select(e => e.Type));
        Assert.Equal(CancelReason.ImmediateOrCancelRemainder, events[^1].CancelReason);
        Assert.Equal(3, events[^1].CumulativeQuantity);
        Assert.Empty(h.Asks());
        Assert.Equal(["b2"], h.Bids().Select(o => o.ClOrdId.ToString()));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Fill_or_kill_that_can_fill_fills_completely_across_levels(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 3);
        h.Sell("s2", 2, 3);
        h.Sell("s3", 3, 3);

        EngineEvent[] events = h.Buy("f1", 2, 6, TimeInForce.FillOrKill, owner: 2);

        Assert.Equal(EventType.Accepted, events[0].Type);
        Assert.Equal(4, events.Count(e => e.Type == EventType.Trade));
        Assert.Equal(0, events[^1].LeavesQuantity);
        Assert.Equal(6, events[^2].CumulativeQuantity);
        Assert.DoesNotContain(events, e => e.Type == EventType.Cancelled);
        Assert.Equal(["s3"], h.Asks().Select(o => o.ClOrdId.ToString()));
        Assert.Empty(h.Bids());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Fill_or_kill_that_cannot_fill_is_killed_as_a_cancel_and_leaves_the_book_untouched(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 3);
        h.Sell("s2", 2, 3);
        h.Sell("s3", 5, 30); // enough quantity, but beyond the FOK's limit
        string before = h.BookState();

        EngineEvent[] events = h.Buy("f1", 2, 7, TimeInForce.FillOrKill, owner: 2);

        EngineEvent killed = Assert.Single(events);
        Assert.Equal((EventType.Cancelled, CancelReason.FillOrKillUnfillable, RejectReason.None), (killed.Type, killed.CancelReason, killed.RejectReason));
        Assert.Equal((0L, 7L, 0L, 0L), (killed.OrderId, killed.OrderQuantity, killed.LeavesQuantity, killed.CumulativeQuantity));
        Assert.Equal("f1", killed.ClOrdId.ToString());
        Assert.Equal(before, h.BookState());

        EngineEvent[] market = h.Market("f2", Side.Buy, 37, TimeInForce.FillOrKill, owner: 2);
        Assert.Equal(CancelReason.FillOrKillUnfillable, Assert.Single(market).CancelReason);
        Assert.Equal(before, h.BookState());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Depth_reports_top_ten_levels_per_side_best_first(string combination)
    {
        var h = EngineHarness.For(combination);
        for (int i = 1; i <= 12; i++)
        {
            h.Sell($"s{i}", i, i);
            h.Sell($"t{i}", i, 1);
            h.Buy($"b{i}", -i, i);
        }

        var depth = default(BookDepth);
        h.Engine.CopyDepth(1, ref depth);

        Assert.Equal(1, depth.InstrumentId);
        Assert.Equal(10, depth.AskCount);
        Assert.Equal(10, depth.BidCount);
        for (int i = 0; i < 10; i++)
        {
            Assert.Equal(TestInstruments.P(i + 1), depth.Asks[i].Price);
            Assert.Equal(i + 2, depth.Asks[i].Quantity);
            Assert.Equal(2, depth.Asks[i].OrderCount);
            Assert.Equal(TestInstruments.P(-(i + 1)), depth.Bids[i].Price);
            Assert.Equal(i + 1, depth.Bids[i].Quantity);
        }

        var other = default(BookDepth);
        h.Engine.CopyDepth(2, ref other);
        Assert.Equal(0, other.AskCount + other.BidCount);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Event_ids_strictly_increase_across_commands(string combination)
    {
        var h = EngineHarness.For(combination);
        var all = new List<EngineEvent>();
        all.AddRange(h.Sell("s1", 1, 5));
        all.AddRange(h.Sell("s1", 1, 5)); // duplicate: rejected, still numbered
        all.AddRange(h.Buy("b1", 1, 8));
        all.AddRange(h.Cancel("c1", "b1", Side.Buy));
        all.AddRange(h.Cancel("c2", "nope", Side.Buy));

        Assert.Equal(7, all.Count);
        for (int i = 1; i < all.Count; i++)
        {
            Assert.True(all[i].EventId > all[i - 1].EventId, $"event {i} id {all[i].EventId} after {all[i - 1].EventId}");
        }

        Assert.All(all, e => Assert.True(e.CommandSequence > 0));
    }
}
