using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// A new trading day expires the resting Day orders, on every strategy combination: which orders, in what order,
/// what each report carries, what the books and the ids look like afterwards.
/// </summary>
public class TradingDayScenarioTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    private static readonly Command NewTradingDay = new() { Type = CommandType.NewTradingDay };

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Day_orders_expire_book_by_book_bids_then_asks_in_priority_order_and_GTC_orders_stay(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s-day-far", 3, 5, instrument: 2);
        h.Buy("b-day-2nd", -1, 5, instrument: 2);
        h.Buy("b-gtc", -1, 5, TimeInForce.GoodTillCancel, instrument: 2);
        h.Buy("b-day-best", 0, 5, instrument: 2);
        h.Buy("b-day-3rd", -1, 5, owner: 2, instrument: 2); // behind b-day-2nd (and b-gtc) in time
        h.Sell("s-day-near", 1, 5, instrument: 2);
        h.Sell("s-gtc", 2, 5, TimeInForce.GoodTillCancel, instrument: 2);
        h.Sell("s-day", 1, 10, instrument: 0);

        EngineEvent[] expired = h.Send(NewTradingDay);

        Assert.Equal(
            ["s-day", "b-day-best", "b-day-2nd", "b-day-3rd", "s-day-near", "s-day-far"],
            expired.Select(e => e.ClOrdId.ToString()));
        Assert.Equal([0, 2, 2, 2, 2, 2], expired.Select(e => e.InstrumentId));
        Assert.All(expired, e =>
        {
            Assert.Equal(EventType.Cancelled, e.Type);
            Assert.Equal(CancelReason.Expired, e.CancelReason);
            Assert.Equal(CommandType.NewTradingDay, e.SourceCommand);
            Assert.Equal(TimeInForce.Day, e.TimeInForce);
            Assert.Equal(0, e.LeavesQuantity);
            Assert.True(e.OrigClOrdId.IsEmpty);
            Assert.NotEqual(0, e.OrderId);
        });
        Assert.Equal(2, expired[3].OwnerId);
        Assert.Equal(Enumerable.Range(0, expired.Length).Select(i => expired[0].EventId + i), expired.Select(e => e.EventId));

        Assert.Equal(["b-gtc"], h.Bids(2).Select(o => o.ClOrdId.ToString()));
        Assert.Equal(["s-gtc"], h.Asks(2).Select(o => o.ClOrdId.ToString()));
        Assert.Empty(h.Asks(0));
        Assert.Equal(2, h.Engine.RestingOrderCount);
        var depth = default(BookDepth);
        h.Engine.CopyDepth(2, ref depth);
        Assert.Equal((1, 1), (depth.BidCount, depth.AskCount));
        Assert.Equal(TestInstruments.P(-1), depth.Bids[0].Price);
        Assert.Equal(TestInstruments.P(2), depth.Asks[0].Price);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void An_expiry_report_carries_the_fills_and_the_time_of_the_new_day_command(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 10);
        h.Buy("b1", 1, 4, owner: 2, tif: TimeInForce.ImmediateOrCancel);
        h.Replace("s1-r", "s1", Side.Sell, 1, 8); // a replaced Day order is still a Day order

        Command roll = NewTradingDay;
        roll.Sequence = 42;
        roll.Timestamp = 1_700_000_000_000_000_000;
        EngineEvent expired = Assert.Single(h.Engine.Process(in roll).ToArray());

        Assert.Equal("s1-r", expired.ClOrdId.ToString());
        Assert.Equal((8L, 4L, 0L), (expired.OrderQuantity, expired.CumulativeQuantity, expired.LeavesQuantity));
        Assert.Equal(4 * TestInstruments.P(1), expired.CumulativeNotional);
        Assert.Equal((1_700_000_000_000_000_000L, 42L), (expired.Timestamp, expired.CommandSequence));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void An_expired_order_is_gone_and_its_id_is_free_on_the_new_day_while_a_GTC_orders_id_is_not(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("day", -1, 5);
        h.Buy("gtc", -2, 5, TimeInForce.GoodTillCancel);
        h.Send(NewTradingDay);

        Assert.Equal(RejectReason.UnknownOrder, Assert.Single(h.Cancel("c1", "day", Side.Buy)).RejectReason);
        Assert.Equal(RejectReason.UnknownOrder, Assert.Single(h.Replace("r1", "day", Side.Buy, -1, 4)).RejectReason);
        Assert.Equal(EventType.Accepted, h.Buy("day", -1, 5)[0].Type);
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Buy("gtc", -1, 5)).RejectReason);

        // Nothing of the expired order is left to match: a sell at its price meets only the new "day".
        EngineEvent[] sell = h.Sell("s1", -1, 5, owner: 2);
        Assert.Equal("day", sell.Single(e => e.Type == EventType.Trade && e.OwnerId == 1).ClOrdId.ToString());
        Assert.Equal(["gtc"], h.Bids().Select(o => o.ClOrdId.ToString()));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_level_holding_only_day_orders_is_removed_and_levels_around_it_keep_their_orders(string combination)
    {
        var h = EngineHarness.For(combination);
        for (int i = 0; i < 12; i++)
        {
            // Alternating Day and GTC at each of three levels, so expiry takes orders from the front, middle and back.
            h.Sell($"s{i}", 1 + (i % 3), 1, i % 2 == 0 ? TimeInForce.Day : TimeInForce.GoodTillCancel);
        }

        h.Sell("only-day-1", 5, 1);
        h.Sell("only-day-2", 5, 1);

        EngineEvent[] expired = h.Send(NewTradingDay);

        Assert.Equal(["s0", "s6", "s4", "s10", "s2", "s8", "only-day-1", "only-day-2"], expired.Select(e => e.ClOrdId.ToString()));
        Assert.Equal(["s3", "s9", "s1", "s7", "s5", "s11"], h.Asks().Select(o => o.ClOrdId.ToString()));
        var depth = default(BookDepth);
        h.Engine.CopyDepth(1, ref depth);
        Assert.Equal(3, depth.AskCount);
        Assert.All(Enumerable.Range(0, 3), i => Assert.Equal((2L, 2), (depth.Asks[i].Quantity, depth.Asks[i].OrderCount)));

        // The books still work: a buy sweeps the remaining levels in price-time order.
        EngineEvent[] sweep = h.Buy("sweep", 3, 6, owner: 2);
        Assert.Equal(["s3", "s9", "s1", "s7", "s5", "s11"], sweep.Where(e => e.Type == EventType.Trade && e.OwnerId == 1).Select(e => e.ClOrdId.ToString()));
        Assert.Empty(h.Send(NewTradingDay));
    }
}
