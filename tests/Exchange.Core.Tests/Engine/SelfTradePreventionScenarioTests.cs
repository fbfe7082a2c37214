using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// Self-trade prevention: an incoming order that meets a resting order of its own owner cancels the resting one
/// (and goes on), cancels itself, or both, as its command says; trades with other owners are unaffected. Every
/// strategy combination.
/// </summary>
public class SelfTradePreventionScenarioTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    private static Command Buy(string id, int ticks, long quantity, SelfTradePrevention prevention, TimeInForce tif = TimeInForce.Day)
    {
        Command command = Commands.Limit(1, 1, id, Side.Buy, TestInstruments.P(ticks), quantity, tif);
        command.SelfTradePrevention = prevention;
        return command;
    }

    /// <summary>Owner 1's s1 at 1 tick first in time, owner 2's s2 behind it at the same price, owner 1's s3 at 2 ticks.</summary>
    private static EngineHarness BookWithOwnOrderFirst(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 5);
        h.Sell("s2", 1, 5, owner: 2);
        h.Sell("s3", 2, 5);
        return h;
    }

    private static string Describe(EngineEvent e) =>
        $"{e.Type} {e.ClOrdId} {(e.Type == EventType.Cancelled ? e.CancelReason.ToString() : e.LastQuantity.ToString(System.Globalization.CultureInfo.InvariantCulture))}";

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Cancel_resting_takes_out_each_own_order_met_and_trades_on_with_the_others(string combination)
    {
        EngineHarness h = BookWithOwnOrderFirst(combination);

        EngineEvent[] events = h.Send(Buy("b1", 2, 8, SelfTradePrevention.CancelResting));

        Assert.Equal(
            ["Accepted b1 0", "Cancelled s1 SelfTradePrevention", "Trade b1 5", "Trade s2 5", "Cancelled s3 SelfTradePrevention"],
            events.Select(Describe));
        Assert.Equal((1, 0L), (events[1].OwnerId, events[1].LeavesQuantity));
        Assert.Equal((3L, 5L), (h.Bids().Single().LeavesQuantity, events[2].CumulativeQuantity)); // the rest rests
        Assert.Empty(h.Asks());
        Assert.Equal((RejectReason.TooLateToCancel, CancelReason.SelfTradePrevention), Tail(h.Cancel("c1", "s1", Side.Sell)));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Cancel_incoming_stops_at_the_first_own_order_which_stays(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s2", 1, 5, owner: 2);
        h.Sell("s1", 1, 5);
        h.Sell("s3", 1, 5, owner: 2);

        EngineEvent[] events = h.Send(Buy("b1", 1, 12, SelfTradePrevention.CancelIncoming));

        Assert.Equal(["Accepted b1 0", "Trade b1 5", "Trade s2 5", "Cancelled b1 SelfTradePrevention"], events.Select(Describe));
        Assert.Equal((12L, 5L, 0L), (events[^1].OrderQuantity, events[^1].CumulativeQuantity, events[^1].LeavesQuantity));
        Assert.Equal(["s1", "s3"], h.Asks().Select(o => o.ClOrdId.ToString()));
        Assert.Empty(h.Bids());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Cancel_both_takes_out_the_first_own_order_and_the_incoming_remainder(string combination)
    {
        EngineHarness h = BookWithOwnOrderFirst(combination);

        EngineEvent[] events = h.Send(Buy("b1", 2, 8, SelfTradePrevention.CancelBoth));

        Assert.Equal(["Accepted b1 0", "Cancelled s1 SelfTradePrevention", "Cancelled b1 SelfTradePrevention"], events.Select(Describe));
        Assert.Equal(["s2", "s3"], h.Asks().Select(o => o.ClOrdId.ToString()));
        Assert.Empty(h.Bids());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Without_prevention_an_owner_trades_with_itself(string combination)
    {
        EngineHarness h = BookWithOwnOrderFirst(combination);

        EngineEvent[] events = h.Send(Buy("b1", 1, 5, SelfTradePrevention.None));

        Assert.Equal(["Accepted b1 0", "Trade b1 5", "Trade s1 5"], events.Select(Describe));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_fill_or_kill_counts_only_what_it_would_trade_with_and_a_kill_changes_nothing(string combination)
    {
        EngineHarness h = BookWithOwnOrderFirst(combination);
        string before = h.BookState();

        // Ten are on offer within 2 ticks, but only s2's five are another owner's.
        EngineEvent killed = Assert.Single(h.Send(Buy("f1", 2, 10, SelfTradePrevention.CancelResting, TimeInForce.FillOrKill)));
        // Stopping at s1 (first in the book), nothing at all can trade.
        EngineEvent stopped = Assert.Single(h.Send(Buy("f2", 1, 5, SelfTradePrevention.CancelIncoming, TimeInForce.FillOrKill)));

        Assert.Equal(CancelReason.FillOrKillUnfillable, killed.CancelReason);
        Assert.Equal(CancelReason.FillOrKillUnfillable, stopped.CancelReason);
        Assert.Equal(before, h.BookState());

        EngineEvent[] filled = h.Send(Buy("f3", 2, 5, SelfTradePrevention.CancelResting, TimeInForce.FillOrKill));
        Assert.Equal(["Accepted f3 0", "Cancelled s1 SelfTradePrevention", "Trade f3 5", "Trade s2 5"], filled.Select(Describe));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_replace_that_crosses_an_own_order_follows_its_own_instruction(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 3, 5);
        h.Send(Buy("b1", -1, 5, SelfTradePrevention.CancelIncoming));
        Command replace = Commands.Replace(1, 1, "b2", "b1", Side.Buy, TestInstruments.P(3), 5);
        replace.SelfTradePrevention = SelfTradePrevention.CancelIncoming;

        EngineEvent[] events = h.Send(replace);

        Assert.Equal(["Replaced b2 0", "Cancelled b2 SelfTradePrevention"], events.Select(Describe));
        Assert.Empty(h.Bids());
        Assert.Equal(["s1"], h.Asks().Select(o => o.ClOrdId.ToString()));
        Assert.Equal((RejectReason.TooLateToCancel, CancelReason.SelfTradePrevention), Tail(h.Cancel("c1", "b2", Side.Buy)));
    }

    private static (RejectReason, CancelReason) Tail(EngineEvent[] events) => (events[^1].RejectReason, events[^1].CancelReason);
}
