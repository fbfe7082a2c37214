using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// Client order ids are unique per owner per trading day, on every strategy combination: reuse after the order is done
/// (filled, cancelled, expired, replaced away), a resent order, the ids of cancel and replace requests, what a rejected
/// command leaves free, a new trading day, and a day whose ids are used up.
/// </summary>
public class ClOrdIdDayScenarioTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Resending_a_filled_order_is_rejected_as_a_duplicate_and_does_not_trade_again(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 10, owner: 2);
        h.Sell("s2", 1, 10, owner: 2);
        Command order = Commands.Limit(1, 1, "b1", Side.Buy, TestInstruments.P(1), 10);
        long orderId = Assert.Single(h.Send(order), e => e.Type == EventType.Accepted).OrderId;
        string before = h.BookState();

        EngineEvent resent = Assert.Single(h.Send(order));

        // The reject reports the existing order as it ended (FIX 4.4 Appendix D, duplicate ClOrdID), not a blank one.
        Assert.Equal(EventType.Rejected, resent.Type);
        Assert.Equal(RejectReason.DuplicateClOrdId, resent.RejectReason);
        Assert.Equal((orderId, 10L, 10L, 0L), (resent.OrderId, resent.OrderQuantity, resent.CumulativeQuantity, resent.LeavesQuantity));
        Assert.Equal(before, h.BookState());
        Assert.Equal(10, Assert.Single(h.Asks()).LeavesQuantity);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void An_id_stays_used_after_its_order_is_cancelled_expires_or_is_replaced_away(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("cancelled", -1, 5);
        h.Cancel("c1", "cancelled", Side.Buy);
        Assert.Equal(EventType.Cancelled, h.Sell("ioc", 1, 5, TimeInForce.ImmediateOrCancel).Last().Type);
        Assert.Equal(EventType.Cancelled, h.Market("market", Side.Buy, 5).Last().Type);
        h.Buy("replaced", -2, 5);
        h.Replace("r1", "replaced", Side.Buy, -2, 4);

        foreach (string id in new[] { "cancelled", "ioc", "market", "replaced" })
        {
            EngineEvent again = Assert.Single(h.Buy(id, -3, 1));
            Assert.Equal(RejectReason.DuplicateClOrdId, again.RejectReason);
        }

        Assert.Equal(["r1"], h.Bids().Select(o => o.ClOrdId.ToString()));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_rejected_order_uses_no_id_and_another_owner_has_its_own_ids(string combination)
    {
        var h = EngineHarness.For(combination);
        Assert.Equal(RejectReason.PriceOutOfBand, Assert.Single(h.Send(Commands.Limit(1, 1, "x", Side.Buy, TestInstruments.MaxPrice + TestInstruments.Tick, 5))).RejectReason);
        Assert.Equal(CancelReason.FillOrKillUnfillable, Assert.Single(h.Buy("y", 1, 5, TimeInForce.FillOrKill)).CancelReason);

        Assert.Equal(EventType.Accepted, h.Buy("x", -1, 5)[0].Type);
        Assert.Equal(EventType.Accepted, h.Buy("y", -1, 5)[0].Type);
        Assert.Equal(EventType.Accepted, h.Sell("x", 1, 5, owner: 2)[0].Type);
        h.Cancel("c1", "x", Side.Sell, owner: 2);
        Assert.Equal(EventType.Accepted, h.Sell("c1", 2, 5, owner: 3)[0].Type);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_cancel_whose_own_id_was_used_is_rejected_and_the_order_stays(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("done", -1, 5);
        h.Cancel("c1", "done", Side.Buy);
        long orderId = h.Buy("b1", -1, 5)[0].OrderId;
        string before = h.BookState();

        foreach (string id in new[] { "done", "c1", "b1" })
        {
            EngineEvent rejected = Assert.Single(h.Cancel(id, "b1", Side.Buy));
            Assert.Equal(EventType.CancelRejected, rejected.Type);
            Assert.Equal(RejectReason.DuplicateClOrdId, rejected.RejectReason);
            Assert.Equal(orderId, rejected.OrderId); // the order exists: its state goes into the OrderCancelReject
        }

        Assert.Equal(before, h.BookState());

        // A cancel's own id is used once it is accepted: no new order may take it.
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("c2", "b1", Side.Buy)).Type);
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Buy("c2", -1, 5)).RejectReason);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_replace_to_a_used_id_or_its_own_id_is_rejected_and_the_order_is_unchanged(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("done", -1, 5);
        h.Cancel("c1", "done", Side.Buy);
        h.Buy("b1", -1, 5);
        string before = h.BookState();

        foreach (string id in new[] { "done", "c1", "b1" })
        {
            EngineEvent rejected = Assert.Single(h.Replace(id, "b1", Side.Buy, -2, 4));
            Assert.Equal(EventType.CancelRejected, rejected.Type);
            Assert.Equal(RejectReason.DuplicateClOrdId, rejected.RejectReason);
        }

        Assert.Equal(before, h.BookState());

        // A resent replace finds its original id gone: it cannot apply twice (it is a duplicate of the replace it repeats).
        Command replace = Commands.Replace(1, 1, "r1", "b1", Side.Buy, TestInstruments.P(-2), 4);
        Assert.Equal(EventType.Replaced, Assert.Single(h.Send(replace)).Type);
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Send(replace)).RejectReason);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_new_trading_day_frees_the_ids_of_done_orders_but_not_of_resting_ones(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("rests", -1, 5, TimeInForce.GoodTillCancel); // a Day order would expire with the day
        h.Buy("done", -2, 5);
        h.Cancel("c1", "done", Side.Buy);

        Assert.Empty(h.Send(new Command { Type = CommandType.NewTradingDay }));

        Assert.Equal(EventType.Accepted, h.Buy("done", -3, 5)[0].Type);
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Buy("rests", -3, 5)).RejectReason);
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Replace("rests", "done", Side.Buy, -3, 4)).RejectReason);
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("c1", "rests", Side.Buy)).Type);
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Cancel("c1", "done", Side.Buy)).RejectReason);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_day_out_of_ids_refuses_new_orders_and_replaces_but_still_cancels(string combination)
    {
        var h = EngineHarness.For(combination, new EngineOptions { MaxClOrdIdsPerDay = 3 });
        h.Buy("b1", -1, 5);
        h.Buy("b2", -2, 5);
        h.Buy("b3", -3, 5);
        string before = h.BookState();

        Assert.Equal(RejectReason.ClOrdIdCapacityExceeded, Assert.Single(h.Buy("b4", -4, 5)).RejectReason);
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Buy("b1", -4, 5)).RejectReason); // a duplicate says so
        EngineEvent replace = Assert.Single(h.Replace("r1", "b1", Side.Buy, -1, 4));
        Assert.Equal(EventType.CancelRejected, replace.Type);
        Assert.Equal(RejectReason.ClOrdIdCapacityExceeded, replace.RejectReason);
        Assert.Equal(before, h.BookState());

        // Cancels go through; their ids cannot be recorded, so one may repeat, but no new order or replace can use it.
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("c1", "b1", Side.Buy)).Type);
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("c1", "b2", Side.Buy)).Type);
        Assert.Equal(RejectReason.ClOrdIdCapacityExceeded, Assert.Single(h.Buy("c1", -4, 5)).RejectReason);
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Cancel("b1", "b3", Side.Buy)).RejectReason);

        h.Send(new Command { Type = CommandType.NewTradingDay });
        Assert.Equal(EventType.Accepted, h.Buy("b4", -4, 5)[0].Type);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_carried_orders_id_is_used_all_the_new_day_whatever_becomes_of_the_order(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("a", -1, 5, TimeInForce.GoodTillCancel);
        h.Buy("b", -2, 5, TimeInForce.GoodTillCancel);
        h.Buy("c", -3, 5, TimeInForce.GoodTillCancel);
        h.Buy("d", -4, 5, TimeInForce.GoodTillCancel);
        h.Send(new Command { Type = CommandType.NewTradingDay });

        // Carried orders leave in every way; "d" stays live throughout.
        Assert.Contains(h.Sell("s1", -1, 5, owner: 2), e => e.Type == EventType.Trade); // "a" fills
        Assert.Equal(EventType.Replaced, Assert.Single(h.Replace("b2", "b", Side.Buy, -5, 5)).Type);
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("x1", "c", Side.Buy)).Type);
        h.Buy("e", -6, 5);

        foreach (string id in new[] { "a", "b", "c", "d" })
        {
            Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Buy(id, -7, 5)).RejectReason);
            Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Replace(id, "e", Side.Buy, -7, 5)).RejectReason);
            Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Cancel(id, "e", Side.Buy)).RejectReason);
        }

        Assert.Equal(["d", "b2", "e"], h.Bids().Select(o => o.ClOrdId.ToString()));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_carried_order_takes_one_of_the_new_days_ids_only_when_it_ends_and_none_once_the_day_is_full(string combination)
    {
        var h = EngineHarness.For(combination, new EngineOptions { MaxClOrdIdsPerDay = 2 });
        h.Buy("p", -1, 10, TimeInForce.GoodTillCancel);
        long q = h.Buy("q", -2, 10, TimeInForce.GoodTillCancel)[0].OrderId;
        h.Send(new Command { Type = CommandType.NewTradingDay });

        Assert.Equal(EventType.Accepted, h.Buy("n", -4, 5)[0].Type); // the carried orders hold none of the day's ids
        EngineEvent reuse = Assert.Single(h.Buy("q", -4, 5));
        Assert.Equal((RejectReason.DuplicateClOrdId, q, 10L), (reuse.RejectReason, reuse.OrderId, reuse.LeavesQuantity));
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Cancel("p", "n", Side.Buy)).RejectReason);

        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("x", "q", Side.Buy)).Type); // x takes the last id
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("y", "p", Side.Buy)).Type);

        // Neither carried id could be recorded as it ended: a later cancel finds no order, and nothing can reuse them.
        EngineEvent unknown = Assert.Single(h.Cancel("z", "p", Side.Buy));
        Assert.Equal((RejectReason.UnknownOrder, 0L), (unknown.RejectReason, unknown.OrderId));
        Assert.Equal(RejectReason.ClOrdIdCapacityExceeded, Assert.Single(h.Buy("p", -4, 5)).RejectReason);
        Assert.Equal(["n"], h.Bids().Select(o => o.ClOrdId.ToString()));
    }
}
