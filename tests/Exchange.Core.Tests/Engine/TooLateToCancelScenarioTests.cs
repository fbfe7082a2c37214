using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// A cancel or replace naming an order that ended today is too late (FIX CxlRejReason 0), answered with that order's id
/// and how it ended; anything else that names no live order stays an unknown order. Every strategy combination.
/// </summary>
public class TooLateToCancelScenarioTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    private static readonly Command NewTradingDay = new() { Type = CommandType.NewTradingDay };

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_resting_order_that_filled_is_too_late_to_cancel_or_replace_and_nothing_changes(string combination)
    {
        var h = EngineHarness.For(combination);
        long id = h.Sell("s1", 1, 5)[0].OrderId;
        h.Sell("s2", 2, 5);
        h.Buy("b1", 1, 5, owner: 2);
        string before = h.BookState();

        EngineEvent cancel = Assert.Single(h.Cancel("c1", "s1", Side.Sell));
        EngineEvent replace = Assert.Single(h.Replace("r1", "s1", Side.Sell, 1, 9));

        AssertTooLate(cancel, id, CancelReason.None, "c1", "s1");
        AssertTooLate(replace, id, CancelReason.None, "r1", "s1");
        Assert.Equal(CommandType.Replace, replace.SourceCommand);
        Assert.Equal(before, h.BookState());

        // Refused requests use no id: the same ids still work.
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("c1", "s2", Side.Sell)).Type);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void An_order_that_filled_on_entry_or_after_a_replace_is_too_late(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 10);
        long taker = h.Buy("b1", 1, 4, owner: 2)[0].OrderId;
        long replaced = h.Buy("b2", -1, 6, owner: 2)[0].OrderId;
        h.Replace("b3", "b2", Side.Buy, 1, 6, owner: 2); // now crosses and fills

        AssertTooLate(Assert.Single(h.Cancel("c1", "b1", Side.Buy, owner: 2)), taker, CancelReason.None, "c1", "b1");
        AssertTooLate(Assert.Single(h.Cancel("c2", "b3", Side.Buy, owner: 2)), replaced, CancelReason.None, "c2", "b3");

        // The id a replace moved away from names no order any more.
        Assert.Equal(RejectReason.UnknownOrder, Assert.Single(h.Cancel("c3", "b2", Side.Buy, owner: 2)).RejectReason);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_cancelled_order_is_too_late_by_its_own_id_and_by_the_cancel_s(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 3, owner: 2);
        long id = h.Buy("b1", 1, 10)[0].OrderId; // 3 filled, 7 rest
        h.Cancel("c1", "b1", Side.Buy);

        AssertTooLate(Assert.Single(h.Cancel("c2", "b1", Side.Buy)), id, CancelReason.Requested, "c2", "b1");
        AssertTooLate(Assert.Single(h.Replace("r1", "c1", Side.Buy, 1, 10)), id, CancelReason.Requested, "r1", "c1");
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Remainders_and_replaces_down_to_the_fills_report_how_they_ended(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 2, owner: 2);
        h.Sell("s2", 1, 2, owner: 2);
        long ioc = h.Buy("i1", 1, 5, TimeInForce.ImmediateOrCancel)[0].OrderId;
        long market = h.Market("m1", Side.Buy, 5)[0].OrderId;
        long reduced = h.Sell("s3", 3, 10, owner: 2)[0].OrderId;
        h.Buy("b1", 3, 4);
        h.Replace("s4", "s3", Side.Sell, 3, 4, owner: 2);

        AssertTooLate(Assert.Single(h.Cancel("c1", "i1", Side.Buy)), ioc, CancelReason.ImmediateOrCancelRemainder, "c1", "i1");
        AssertTooLate(Assert.Single(h.Cancel("c2", "m1", Side.Buy)), market, CancelReason.MarketRemainder, "c2", "m1");
        AssertTooLate(Assert.Single(h.Cancel("c3", "s4", Side.Sell, owner: 2)), reduced, CancelReason.ReplacedToFilled, "c3", "s4");
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Orders_that_never_entered_or_of_an_earlier_day_are_unknown(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("f1", 1, 5, TimeInForce.GoodTillCancel);
        h.Sell("d1", 2, 5);
        h.Buy("k1", 2, 50, TimeInForce.FillOrKill); // killed: never entered
        h.Buy("b0", 1, 5, owner: 2);                 // fills f1 the day before
        h.Send(NewTradingDay);                       // d1 expires

        foreach ((string request, string orig) in new[] { ("c1", "k1"), ("c2", "d1"), ("c3", "f1") })
        {
            EngineEvent e = Assert.Single(h.Cancel(request, orig, Side.Sell));
            Assert.Equal((EventType.CancelRejected, RejectReason.UnknownOrder, 0L), (e.Type, e.RejectReason, e.OrderId));
        }
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_carried_order_that_ends_today_is_too_late_to_cancel_by_its_id_or_the_cancels(string combination)
    {
        var h = EngineHarness.For(combination);
        long filled = h.Sell("g1", 1, 5, TimeInForce.GoodTillCancel)[0].OrderId;
        long cancelled = h.Sell("g2", 2, 5, TimeInForce.GoodTillCancel)[0].OrderId;
        long replaced = h.Sell("g3", 3, 5, TimeInForce.GoodTillCancel)[0].OrderId;
        h.Send(NewTradingDay); // all three rest on; each id is recorded today as its order ends or is replaced
        h.Buy("b1", 1, 5, owner: 2);
        h.Cancel("x2", "g2", Side.Sell);
        h.Replace("g3b", "g3", Side.Sell, 3, 4);
        h.Cancel("x3", "g3b", Side.Sell);

        AssertTooLate(Assert.Single(h.Cancel("c1", "g1", Side.Sell)), filled, CancelReason.None, "c1", "g1");
        AssertTooLate(Assert.Single(h.Replace("r2", "g2", Side.Sell, 2, 9)), cancelled, CancelReason.Requested, "r2", "g2");
        AssertTooLate(Assert.Single(h.Cancel("c2", "x2", Side.Sell)), cancelled, CancelReason.Requested, "c2", "x2");
        AssertTooLate(Assert.Single(h.Cancel("c3", "g3b", Side.Sell)), replaced, CancelReason.Requested, "c3", "g3b");
        EngineEvent movedAway = Assert.Single(h.Cancel("c4", "g3", Side.Sell)); // a replace moved the order off this id
        Assert.Equal((EventType.CancelRejected, RejectReason.UnknownOrder), (movedAway.Type, movedAway.RejectReason));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_refused_request_reports_an_ended_order_with_the_gateway_s_reason(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 5);
        long id = h.Buy("b1", 1, 5, owner: 2)[0].OrderId;
        Command refused = Commands.Cancel(1, 2, "c1", "b1", Side.Buy);
        RefusedRequests.Refuse(ref refused, RejectReason.UnsupportedOrderInstruction);

        EngineEvent e = Assert.Single(h.Send(refused));

        Assert.Equal((EventType.CancelRejected, RejectReason.UnsupportedOrderInstruction), (e.Type, e.RejectReason));
        Assert.Equal((id, 0L, CancelReason.None), (e.OrderId, e.LeavesQuantity, e.CancelReason));
    }

    private static void AssertTooLate(EngineEvent e, long orderId, CancelReason endReason, string clOrdId, string origClOrdId)
    {
        Assert.Equal((EventType.CancelRejected, RejectReason.TooLateToCancel), (e.Type, e.RejectReason));
        Assert.Equal((orderId, endReason, 0L), (e.OrderId, e.CancelReason, e.LeavesQuantity));
        Assert.Equal((clOrdId, origClOrdId), (e.ClOrdId.ToString(), e.OrigClOrdId.ToString()));
    }
}
