using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// A new order whose client id names a live order of its owner, on every strategy combination: sent as a possible
/// resend it is answered with the live order's current state (FIX ExecType I); otherwise its reject carries that state,
/// so neither reads as the live order's end. Nothing is entered, recorded or changed either way.
/// </summary>
public class PossibleResendScenarioTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_possible_resend_of_a_resting_order_reports_its_current_state_and_changes_nothing(string combination)
    {
        var h = EngineHarness.For(combination);
        Command order = Commands.Limit(1, 1, "b1", Side.Buy, TestInstruments.P(-1), 10);
        long orderId = h.Send(order)[0].OrderId;
        h.Sell("s1", -1, 4, owner: 2); // b1 is now 4 filled, 6 open
        string before = h.BookState();

        EngineEvent status = Assert.Single(h.Send(AsPossibleResend(order)));

        Assert.Equal(EventType.OrderStatus, status.Type);
        Assert.Equal(CommandType.NewOrder, status.SourceCommand);
        Assert.Equal(RejectReason.None, status.RejectReason);
        Assert.Equal(orderId, status.OrderId);
        Assert.Equal("b1", status.ClOrdId.ToString());
        Assert.Equal((1, 1, Side.Buy, OrderType.Limit, TimeInForce.Day), (status.InstrumentId, status.OwnerId, status.Side, status.OrderType, status.TimeInForce));
        Assert.Equal(TestInstruments.P(-1), status.Price);
        Assert.Equal((10, 6, 4), (status.OrderQuantity, status.LeavesQuantity, status.CumulativeQuantity));
        Assert.Equal(4 * TestInstruments.P(-1), status.CumulativeNotional);
        Assert.Equal(0, status.LastQuantity);
        Assert.Equal(before, h.BookState());
        Assert.Equal(1, h.Engine.RestingOrderCount);

        // Asked again, the same answer: the status recorded nothing and left the order where it was.
        Assert.Equal(EventType.OrderStatus, Assert.Single(h.Send(AsPossibleResend(order))).Type);
        Assert.Equal(6, Assert.Single(h.Sell("s2", -1, 6, owner: 2), e => e.Type == EventType.Trade && e.OwnerId == 1).LastQuantity);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_possible_resend_reports_the_order_as_replaced_and_once_it_is_done_as_it_ended(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", -1, 10);
        h.Replace("r1", "b1", Side.Buy, -2, 8);

        // The replace's id names the live order now, with its new terms; so does the original id, while the order lives
        // (Appendix D: a resend of an order already received is answered with the order's current state).
        EngineEvent status = Assert.Single(h.Send(AsPossibleResend(Commands.Limit(1, 1, "r1", Side.Buy, TestInstruments.P(-2), 8))));
        Assert.Equal(EventType.OrderStatus, status.Type);
        Assert.Equal((TestInstruments.P(-2), 8L, 8L), (status.Price, status.OrderQuantity, status.LeavesQuantity));
        EngineEvent original = Assert.Single(h.Send(AsPossibleResend(Commands.Limit(1, 1, "b1", Side.Buy, TestInstruments.P(-1), 10))));
        Assert.Equal((EventType.OrderStatus, status.OrderId, 8L, 8L), (original.Type, original.OrderId, original.OrderQuantity, original.LeavesQuantity));
        Assert.Equal("b1", original.ClOrdId.ToString()); // the request's id, so the client can match the answer
        EngineEvent reused = Assert.Single(h.Buy("b1", -1, 10));
        Assert.Equal((EventType.Rejected, RejectReason.DuplicateClOrdId, status.OrderId, 8L), (reused.Type, reused.RejectReason, reused.OrderId, reused.LeavesQuantity));

        // Once the order is done, a possible resend gets its final status (filled, no leaves) and enters nothing.
        long orderId = h.Sell("s1", -2, 8, owner: 2)[^1].OrderId;
        EngineEvent done = Assert.Single(h.Send(AsPossibleResend(Commands.Limit(1, 1, "r1", Side.Buy, TestInstruments.P(-2), 8))));
        Assert.Equal((EventType.OrderStatus, RejectReason.None, orderId), (done.Type, done.RejectReason, done.OrderId));
        Assert.Equal((8L, 8L, 0L, CancelReason.None), (done.OrderQuantity, done.CumulativeQuantity, done.LeavesQuantity, done.CancelReason));
        Assert.Empty(h.Bids());

        // Not a possible resend: the duplicate's reject, with the ended order's final state. Of the other side, or by the
        // id a replace moved away from once the order has ended: a duplicate that names no order.
        EngineEvent rejected = Assert.Single(h.Buy("r1", -2, 8));
        Assert.Equal((EventType.Rejected, RejectReason.DuplicateClOrdId, orderId), (rejected.Type, rejected.RejectReason, rejected.OrderId));
        Assert.Equal((8L, 8L, 0L), (rejected.OrderQuantity, rejected.CumulativeQuantity, rejected.LeavesQuantity));
        AssertDuplicateOfNoLiveOrder(h.Send(AsPossibleResend(Commands.Limit(1, 1, "r1", Side.Sell, TestInstruments.P(-2), 8))));
        AssertDuplicateOfNoLiveOrder(h.Send(AsPossibleResend(Commands.Limit(1, 1, "b1", Side.Buy, TestInstruments.P(-1), 10))));

        // A cancel's id names the order it cancelled (a status request by it reports that order), but no order was
        // received under it: a possible resend of it is a duplicate.
        h.Buy("b2", -3, 5);
        h.Cancel("c2", "b2", Side.Buy);
        AssertDuplicateOfNoLiveOrder(h.Send(AsPossibleResend(Commands.Limit(1, 1, "c2", Side.Buy, TestInstruments.P(-3), 5))));
        Assert.Equal(EventType.OrderStatus, Assert.Single(h.Send(AsPossibleResend(Commands.Limit(1, 1, "b2", Side.Buy, TestInstruments.P(-3), 5)))).Type);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_duplicate_that_is_not_a_possible_resend_is_rejected_with_the_live_orders_state(string combination)
    {
        var h = EngineHarness.For(combination);
        long orderId = h.Sell("s1", 3, 10)[0].OrderId;
        string before = h.BookState();

        // Reusing the live order's id for different terms: FIX's "duplicate ClOrdID" answer, the reject of the second
        // order combined with the status of the first (its OrderID, side, price and quantities, not the request's).
        EngineEvent rejected = Assert.Single(h.Buy("s1", -1, 25));

        Assert.Equal(EventType.Rejected, rejected.Type);
        Assert.Equal(RejectReason.DuplicateClOrdId, rejected.RejectReason);
        Assert.Equal(orderId, rejected.OrderId);
        Assert.Equal((Side.Sell, TestInstruments.P(3), 10L, 10L, 0L), (rejected.Side, rejected.Price, rejected.OrderQuantity, rejected.LeavesQuantity, rejected.CumulativeQuantity));
        Assert.Equal(before, h.BookState());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_possible_resend_with_another_fault_is_rejected_for_that_fault_with_the_live_orders_state(string combination)
    {
        var h = EngineHarness.For(combination);
        Command order = Commands.Limit(1, 1, "b1", Side.Buy, TestInstruments.P(-1), 10);
        long orderId = h.Send(order)[0].OrderId;
        Command altered = AsPossibleResend(order);
        altered.Price = TestInstruments.MaxPrice + TestInstruments.Tick;

        // Not the same order, so not a resend: refused for its price, but the reject still says b1 rests.
        EngineEvent rejected = Assert.Single(h.Send(altered));

        Assert.Equal(EventType.Rejected, rejected.Type);
        Assert.Equal(RejectReason.PriceOutOfBand, rejected.RejectReason);
        Assert.Equal(orderId, rejected.OrderId);
        Assert.Equal(10, rejected.LeavesQuantity);
        Assert.Equal(10, Assert.Single(h.Bids()).LeavesQuantity);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_resting_order_carried_into_a_new_day_is_still_reported_and_ids_stay_per_owner(string combination)
    {
        // Good till cancel: a Day order would expire with the day.
        var h = EngineHarness.For(combination);
        Command order = Commands.Limit(1, 1, "b1", Side.Buy, TestInstruments.P(-1), 10, TimeInForce.GoodTillCancel);
        long orderId = h.Send(order)[0].OrderId;
        h.Send(new Command { Type = CommandType.NewTradingDay });

        // Today's ids no longer hold b1, the live orders still do.
        EngineEvent status = Assert.Single(h.Send(AsPossibleResend(order)));
        Assert.Equal(EventType.OrderStatus, status.Type);
        Assert.Equal(orderId, status.OrderId);

        // Another owner's order under the same id, sent as a possible resend, never arrived before: it is entered.
        Command othersOrder = order;
        othersOrder.OwnerId = 2;
        Assert.Equal(EventType.Accepted, h.Send(AsPossibleResend(othersOrder))[0].Type);
        Assert.Equal(2, h.Bids().Count);
    }

    private static Command AsPossibleResend(Command command)
    {
        command.PossibleResend = true;
        return command;
    }

    private static void AssertDuplicateOfNoLiveOrder(EngineEvent[] events)
    {
        EngineEvent rejected = Assert.Single(events);
        Assert.Equal(EventType.Rejected, rejected.Type);
        Assert.Equal(RejectReason.DuplicateClOrdId, rejected.RejectReason);
        Assert.Equal(0, rejected.OrderId);
    }
}
