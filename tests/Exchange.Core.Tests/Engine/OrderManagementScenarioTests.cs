using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>Cancel and cancel/replace rules, each run on every strategy combination.</summary>
public class OrderManagementScenarioTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Cancel_removes_the_order_and_reports_both_ids(string combination)
    {
        var h = EngineHarness.For(combination);
        long id = h.Buy("b1", -1, 5)[0].OrderId;
        h.Buy("b2", -1, 5);

        EngineEvent cancelled = Assert.Single(h.Cancel("c1", "b1", Side.Buy));

        Assert.Equal(EventType.Cancelled, cancelled.Type);
        Assert.Equal(CancelReason.Requested, cancelled.CancelReason);
        Assert.Equal("c1", cancelled.ClOrdId.ToString());
        Assert.Equal("b1", cancelled.OrigClOrdId.ToString());
        Assert.Equal(id, cancelled.OrderId);
        Assert.Equal(0, cancelled.LeavesQuantity);
        Assert.Equal(["b2"], h.Bids().Select(o => o.ClOrdId.ToString()));
        Assert.Equal(1, h.Engine.RestingOrderCount);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Cancel_of_partially_filled_order_reports_its_fills(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 10);
        h.Buy("b1", 1, 4, owner: 2);

        EngineEvent cancelled = Assert.Single(h.Cancel("c1", "s1", Side.Sell));

        Assert.Equal(4, cancelled.CumulativeQuantity);
        Assert.Equal(10, cancelled.OrderQuantity);
        Assert.Empty(h.Asks());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Cancel_of_unknown_or_foreign_order_is_rejected_without_change(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 5, owner: 1);
        h.Sell("s2", 2, 5, owner: 1);
        h.Buy("b1", 1, 5, owner: 2); // fills s1
        string before = h.BookState();

        EngineEvent unknown = Assert.Single(h.Cancel("c1", "zzz", Side.Sell));
        EngineEvent foreign = Assert.Single(h.Cancel("c3", "s2", Side.Sell, owner: 2));
        EngineEvent otherInstrument = Assert.Single(h.Cancel("c4", "s2", Side.Sell, instrument: 2));
        EngineEvent filledOnOtherInstrument = Assert.Single(h.Cancel("c2", "s1", Side.Sell, instrument: 2));
        EngineEvent badInstrument = Assert.Single(h.Cancel("c5", "s2", Side.Sell, instrument: 99));

        foreach (EngineEvent e in new[] { unknown, foreign, otherInstrument, filledOnOtherInstrument })
        {
            Assert.Equal(EventType.CancelRejected, e.Type);
            Assert.Equal(RejectReason.UnknownOrder, e.RejectReason);
            Assert.Equal(0, e.OrderId);
        }

        Assert.Equal(RejectReason.UnknownInstrument, badInstrument.RejectReason);
        Assert.Equal("c3", foreign.ClOrdId.ToString());
        Assert.Equal("s2", foreign.OrigClOrdId.ToString());
        Assert.Equal(before, h.BookState());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Replace_reducing_quantity_at_same_price_keeps_priority(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 10);
        h.Sell("s2", 1, 10);

        EngineEvent replaced = Assert.Single(h.Replace("r1", "s1", Side.Sell, 1, 6));

        Assert.Equal(EventType.Replaced, replaced.Type);
        Assert.Equal("r1", replaced.ClOrdId.ToString());
        Assert.Equal("s1", replaced.OrigClOrdId.ToString());
        Assert.Equal(6, replaced.OrderQuantity);
        Assert.Equal(6, replaced.LeavesQuantity);
        Assert.Equal(["r1", "s2"], h.Asks().Select(o => o.ClOrdId.ToString()));

        EngineEvent[] trade = h.Buy("b1", 1, 1, owner: 2);
        Assert.Equal("r1", trade[2].ClOrdId.ToString());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Replace_reducing_a_partially_filled_order_keeps_fills(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 10);
        h.Buy("b1", 1, 4, owner: 2);

        EngineEvent replaced = Assert.Single(h.Replace("r1", "s1", Side.Sell, 1, 7));

        Assert.Equal(7, replaced.OrderQuantity);
        Assert.Equal(3, replaced.LeavesQuantity);
        Assert.Equal(4, replaced.CumulativeQuantity);
        RestingOrder ask = Assert.Single(h.Asks());
        Assert.Equal(3, ask.LeavesQuantity);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Replace_increasing_quantity_loses_priority(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 10);
        h.Sell("s2", 1, 10);

        EngineEvent replaced = Assert.Single(h.Replace("r1", "s1", Side.Sell, 1, 12));

        Assert.Equal(12, replaced.LeavesQuantity);
        Assert.Equal(["s2", "r1"], h.Asks().Select(o => o.ClOrdId.ToString()));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Replace_changing_price_moves_to_back_of_new_level(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", -2, 5);
        h.Buy("b2", -1, 5);
        h.Buy("b3", -3, 5);

        EngineEvent replaced = Assert.Single(h.Replace("r1", "b3", Side.Buy, -1, 5));

        Assert.Equal(TestInstruments.P(-1), replaced.Price);
        Assert.Equal(["b2", "r1", "b1"], h.Bids().Select(o => o.ClOrdId.ToString()));
        Assert.Equal(replaced.OrderId, h.Bids()[1].OrderId);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Replace_that_becomes_marketable_trades_at_once_and_rests_the_rest(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 3, owner: 2);
        h.Sell("s2", 2, 3, owner: 2);
        h.Buy("b1", -1, 10);

        EngineEvent[] events = h.Replace("r1", "b1", Side.Buy, 1, 10);

        Assert.Equal([EventType.Replaced, EventType.Trade, EventType.Trade], events.Select(e => e.Type));
        Assert.Equal("r1", events[1].ClOrdId.ToString());
        Assert.Equal(TestInstruments.P(1), events[1].LastPrice);
        Assert.Equal("s1", events[2].ClOrdId.ToString());
        RestingOrder bid = Assert.Single(h.Bids());
        Assert.Equal(7, bid.LeavesQuantity);
        Assert.Equal(TestInstruments.P(1), bid.Price);
        Assert.Equal(["s2"], h.Asks().Select(o => o.ClOrdId.ToString()));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Replace_down_to_filled_quantity_cancels_the_rest(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 10);
        h.Buy("b1", 1, 6, owner: 2);

        EngineEvent replaced = Assert.Single(h.Replace("r1", "s1", Side.Sell, 1, 4));

        Assert.Equal(EventType.Replaced, replaced.Type);
        Assert.Equal(CancelReason.ReplacedToFilled, replaced.CancelReason);
        Assert.Equal(0, replaced.LeavesQuantity);
        Assert.Equal(6, replaced.CumulativeQuantity);
        Assert.Equal(6, replaced.OrderQuantity); // clamped to what filled: OrderQty = CumQty + LeavesQty
        Assert.Empty(h.Asks());
        Assert.Equal(0, h.Engine.RestingOrderCount);
        Assert.Equal(RejectReason.TooLateToCancel, Assert.Single(h.Cancel("c1", "r1", Side.Sell)).RejectReason);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Replace_to_new_client_id_rekeys_the_order(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", -1, 5);
        h.Replace("r1", "b1", Side.Buy, -2, 5);

        Assert.Equal(RejectReason.UnknownOrder, Assert.Single(h.Cancel("c1", "b1", Side.Buy)).RejectReason);
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Buy("b1", -3, 1)).RejectReason); // used today
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("c2", "r1", Side.Buy)).Type);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Reserving_order_ids_keeps_new_orders_off_every_id_the_lost_commands_handed_out(string combination)
    {
        // One engine runs a day; a second replays only its first commands (the journal lost the rest, but clients saw
        // their reports), then reserves through the first engine's last event id, as the venue does at start.
        var options = new EngineOptions { InitialOrderCapacity = 2 };
        var full = EngineHarness.For(combination, options);
        var recovered = EngineHarness.For(combination, options);
        var seen = new HashSet<long>();
        for (int i = 0; i < 3; i++)
        {
            foreach (EngineHarness h in new[] { full, recovered })
            {
                seen.Add(h.Buy($"kept{i}", -1 - i, 5)[0].OrderId);
            }
        }

        // Lost: slots reused (cancelled and entered again) and the store grown past what the replay rebuilds.
        for (int i = 0; i < 6; i++)
        {
            seen.Add(full.Buy($"lost{i}", -10, 5)[0].OrderId);
            if (i % 2 == 0)
            {
                full.Cancel($"c{i}", $"lost{i}", Side.Buy);
            }
        }

        long lastSeenEvent = full.Buy("last", -10, 5)[0].EventId;
        Assert.Empty(recovered.Send(new Command { Type = CommandType.ReserveEventAndOrderIds, Quantity = lastSeenEvent }));

        for (int i = 0; i < 12; i++)
        {
            EngineEvent accepted = recovered.Buy($"new{i}", -20, 5)[0];
            Assert.True(accepted.EventId > lastSeenEvent);
            Assert.DoesNotContain(accepted.OrderId, seen);
            if (i % 3 == 0)
            {
                recovered.Cancel($"nc{i}", $"new{i}", Side.Buy); // its slot is reused by the next order
            }
        }

        // The orders the replay kept keep their ids.
        Assert.Equal(EventType.Cancelled, Assert.Single(recovered.Cancel("ck", "kept0", Side.Buy)).Type);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Reserving_event_ids_numbers_later_events_above_them_and_never_lowers_the_numbering(string combination)
    {
        var h = EngineHarness.For(combination);
        long first = Assert.Single(h.Buy("b1", -1, 5)).EventId;

        Assert.Empty(h.Send(new Command { Type = CommandType.ReserveEventIds, Quantity = first + 100 }));
        Assert.Equal(first + 101, Assert.Single(h.Buy("b2", -1, 5)).EventId);

        Assert.Empty(h.Send(new Command { Type = CommandType.ReserveEventIds, Quantity = first + 50 }));
        Assert.Equal(first + 102, Assert.Single(h.Buy("b3", -1, 5)).EventId);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Replace_that_restates_the_orders_own_type_and_time_in_force_is_applied(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Send(Commands.Limit(1, 1, "g1", Side.Buy, TestInstruments.P(-1), 5, TimeInForce.GoodTillCancel));

        EngineEvent replaced = Assert.Single(h.Send(Commands.Replace(1, 1, "r1", "g1", Side.Buy, TestInstruments.P(-2), 5) with { TimeInForce = TimeInForce.GoodTillCancel }));

        Assert.Equal(EventType.Replaced, replaced.Type);
        Assert.Equal(RejectReason.ReplaceTimeInForceMismatch, Assert.Single(h.Send(Commands.Replace(1, 1, "r2", "r1", Side.Buy, TestInstruments.P(-2), 5) with { TimeInForce = TimeInForce.Day })).RejectReason);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Replace_rejections_leave_the_order_unchanged(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", -1, 5);
        h.Buy("b2", -1, 5);
        string before = h.BookState();

        (EngineEvent[] Events, RejectReason Expected)[] cases =
        [
            (h.Replace("r1", "b1", Side.Sell, -1, 5), RejectReason.ReplaceSideMismatch),
            (h.Replace("r2", "zz", Side.Buy, -1, 5), RejectReason.UnknownOrder),
            (h.Replace("r3", "b1", Side.Buy, -1, 5, owner: 9), RejectReason.UnknownOrder),
            (h.Replace("r4", "b1", Side.Buy, -1, 0), RejectReason.QuantityNotPositive),
            (h.Send(Commands.Replace(1, 1, "r5", "b1", Side.Buy, TestInstruments.P(-1) + 1, 5)), RejectReason.PriceOffTick),
            (h.Send(Commands.Replace(1, 1, "r6", "b1", Side.Buy, 0, 5)), RejectReason.PriceNotPositive),
            (h.Send(Commands.Replace(1, 1, "r7", "b1", Side.Buy, TestInstruments.MaxPrice + TestInstruments.Tick, 5)), RejectReason.PriceOutOfBand),
            (h.Replace("b2", "b1", Side.Buy, -1, 4), RejectReason.DuplicateClOrdId),
            (h.Send(Commands.Replace(0, 1, "r8", "b1", Side.Buy, TestInstruments.P(-1), 5)), RejectReason.UnknownOrder),
            (h.Send(Commands.Replace(1, 1, "r9", "b1", Side.Buy, TestInstruments.P(-1), 5) with { TimeInForce = TimeInForce.GoodTillCancel }), RejectReason.ReplaceTimeInForceMismatch),
            (h.Send(Commands.Replace(1, 1, "r10", "b1", Side.Buy, 0, 5) with { OrderType = OrderType.Market }), RejectReason.ReplaceOrderTypeMismatch),
        ];

        foreach ((EngineEvent[] events, RejectReason expected) in cases)
        {
            EngineEvent e = Assert.Single(events);
            Assert.Equal(EventType.CancelRejected, e.Type);
            Assert.Equal(expected, e.RejectReason);
        }

        Assert.Equal(before, h.BookState());
        var lot = new EngineHarness(StrategyMatrix.Create(combination, TestInstruments.Create()));
        lot.Buy("b1", -1, 10, instrument: 0);
        Assert.Equal(RejectReason.QuantityOffLot, Assert.Single(lot.Replace("r1", "b1", Side.Buy, -1, 15, instrument: 0)).RejectReason);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_cancel_naming_the_order_with_the_other_side_is_refused_and_the_order_rests_on(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", -1, 5);
        string before = h.BookState();

        EngineEvent refused = Assert.Single(h.Cancel("c1", "b1", Side.Sell));

        Assert.Equal(EventType.CancelRejected, refused.Type);
        Assert.Equal(RejectReason.CancelSideMismatch, refused.RejectReason);
        Assert.Equal(5, refused.LeavesQuantity);
        Assert.Equal(before, h.BookState());

        // The refused cancel used no id: the corrected one may reuse it, and a cancel without a side is not checked.
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("c1", "b1", Side.Buy)).Type);
        h.Buy("b2", -1, 5);
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("c2", "b2", Side.None)).Type);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_replace_resent_after_it_was_carried_out_is_a_duplicate_about_the_order_it_made(string combination)
    {
        var h = EngineHarness.For(combination);
        long orderId = h.Buy("b1", -1, 10)[0].OrderId;
        Assert.Equal(EventType.Replaced, Assert.Single(h.Replace("r1", "b1", Side.Buy, -2, 8)).Type);
        string before = h.BookState();

        // The client got no answer and sends r1 replacing b1 again: it must learn r1 is live, not that its order is unknown.
        EngineEvent resent = Assert.Single(h.Replace("r1", "b1", Side.Buy, -2, 8));
        Assert.Equal((EventType.CancelRejected, RejectReason.DuplicateClOrdId, orderId), (resent.Type, resent.RejectReason, resent.OrderId));
        Assert.Equal((8L, 8L), (resent.OrderQuantity, resent.LeavesQuantity));
        Assert.Equal(before, h.BookState());

        // Another request naming the id replaced away from is still about no order.
        EngineEvent stale = Assert.Single(h.Replace("r2", "b1", Side.Buy, -2, 7));
        Assert.Equal((RejectReason.UnknownOrder, 0L), (stale.RejectReason, stale.OrderId));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_replace_resent_after_the_order_it_made_ended_is_a_duplicate_saying_how_it_ended(string combination)
    {
        var h = EngineHarness.For(combination);
        long filledId = h.Buy("b1", -1, 10)[0].OrderId;
        h.Replace("r1", "b1", Side.Buy, -2, 8);
        h.Sell("s1", -2, 8, owner: 2);
        long cancelledId = h.Buy("b2", -3, 10)[0].OrderId;
        h.Replace("r2", "b2", Side.Buy, -4, 6);
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("c2", "r2", Side.Buy)).Type);

        EngineEvent filled = Assert.Single(h.Replace("r1", "b1", Side.Buy, -2, 8));
        EngineEvent cancelled = Assert.Single(h.Replace("r2", "b2", Side.Buy, -4, 6));

        Assert.Equal((EventType.CancelRejected, RejectReason.DuplicateClOrdId, filledId, CancelReason.None, 0L),
            (filled.Type, filled.RejectReason, filled.OrderId, filled.CancelReason, filled.LeavesQuantity));
        Assert.Equal((EventType.CancelRejected, RejectReason.DuplicateClOrdId, cancelledId, CancelReason.Requested, 0L),
            (cancelled.Type, cancelled.RejectReason, cancelled.OrderId, cancelled.CancelReason, cancelled.LeavesQuantity));

        // A new request from the id replaced away from still names no order.
        Assert.Equal(RejectReason.UnknownOrder, Assert.Single(h.Replace("r3", "b1", Side.Buy, -2, 7)).RejectReason);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_replace_resent_after_a_later_replace_is_a_duplicate_about_the_live_order(string combination)
    {
        var h = EngineHarness.For(combination);
        long orderId = h.Buy("a", -1, 10)[0].OrderId;
        Assert.Equal(EventType.Replaced, h.Replace("b", "a", Side.Buy, -2, 8)[0].Type);
        Assert.Equal(EventType.Replaced, h.Replace("c", "b", Side.Buy, -3, 6)[0].Type);

        // The first replace again (a to b), after the order moved on to c: the order as it stands, not "unknown".
        EngineEvent resent = Assert.Single(h.Replace("b", "a", Side.Buy, -2, 8));
        Assert.Equal((EventType.CancelRejected, RejectReason.DuplicateClOrdId, orderId, 6L),
            (resent.Type, resent.RejectReason, resent.OrderId, resent.LeavesQuantity));

        // An id the order never held, from a superseded one, still names no order.
        Assert.Equal(RejectReason.UnknownOrder, Assert.Single(h.Replace("d", "a", Side.Buy, -2, 8)).RejectReason);

        // Once the order has ended under c: how it ended, found through c. The same for a cancel naming the pair.
        Assert.Equal(EventType.Cancelled, Assert.Single(h.Cancel("x", "c", Side.Buy)).Type);
        foreach (EngineEvent again in new[] { Assert.Single(h.Replace("b", "a", Side.Buy, -2, 8)), Assert.Single(h.Cancel("b", "a", Side.Buy)) })
        {
            Assert.Equal((EventType.CancelRejected, RejectReason.DuplicateClOrdId, orderId, CancelReason.Requested, 0L),
                (again.Type, again.RejectReason, again.OrderId, again.CancelReason, again.LeavesQuantity));
        }

        // An id the order never held still names no order.
        Assert.Equal(RejectReason.UnknownOrder, Assert.Single(h.Replace("d", "a", Side.Buy, -2, 8)).RejectReason);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_replace_resent_after_its_order_filled_under_a_later_id_reports_the_fill(string combination)
    {
        var h = EngineHarness.For(combination);
        long orderId = h.Buy("a", -1, 10)[0].OrderId;
        Assert.Equal(EventType.Replaced, h.Replace("b", "a", Side.Buy, -2, 8)[0].Type);
        Assert.Equal(EventType.Replaced, h.Replace("c", "b", Side.Buy, -3, 6)[0].Type);
        Assert.Equal(EventType.Replaced, h.Replace("d", "c", Side.Buy, -3, 5)[0].Type);
        Assert.Contains(h.Sell("s", -3, 5, owner: 2), e => e.Type == EventType.Trade && e.OrderId == orderId && e.LeavesQuantity == 0);

        // Each earlier replace resent, in any order and twice: the fill, not "unknown order".
        foreach ((string clOrdId, string orig) in new[] { ("b", "a"), ("c", "b"), ("b", "a"), ("d", "c") })
        {
            EngineEvent resent = Assert.Single(h.Replace(clOrdId, orig, Side.Buy, -2, 8));
            Assert.Equal((EventType.CancelRejected, RejectReason.DuplicateClOrdId, orderId, CancelReason.None),
                (resent.Type, resent.RejectReason, resent.OrderId, resent.CancelReason));
        }
    }
}
