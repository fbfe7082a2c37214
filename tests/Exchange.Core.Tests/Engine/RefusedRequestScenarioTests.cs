using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// A cancel or replace the gateway refused reaches the engine only to be answered: a CancelRejected event with the
/// gateway's reason and the named order's state, and no change to the book or the day's client ids.
/// </summary>
public class RefusedRequestScenarioTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_refused_replace_of_a_partly_filled_order_reports_its_state_and_changes_nothing(string combination)
    {
        var h = EngineHarness.For(combination);
        long orderId = h.Sell("s1", 2, 10)[0].OrderId;
        h.Buy("b1", 2, 4, owner: 2);
        Command refused = Commands.Replace(1, 1, "s2", "s1", Side.Sell, TestInstruments.P(3), 10);
        RefusedRequests.Refuse(ref refused, RejectReason.PriceOffTick);

        EngineEvent rejected = Assert.Single(h.Send(refused));

        Assert.Equal((EventType.CancelRejected, CommandType.Replace, RejectReason.PriceOffTick), (rejected.Type, rejected.SourceCommand, rejected.RejectReason));
        Assert.Equal(("s2", "s1"), (rejected.ClOrdId.ToString(), rejected.OrigClOrdId.ToString()));
        Assert.Equal((orderId, 10L, 6L, 4L), (rejected.OrderId, rejected.OrderQuantity, rejected.LeavesQuantity, rejected.CumulativeQuantity));
        RestingOrder resting = Assert.Single(h.Asks());
        Assert.Equal(("s1", 6L, TestInstruments.P(2)), (resting.ClOrdId.ToString(), resting.LeavesQuantity, resting.Price));

        // The refused request's ClOrdID was not used up: a valid replace may take it.
        EngineEvent replaced = Assert.Single(h.Replace("s2", "s1", Side.Sell, 3, 10));
        Assert.Equal(EventType.Replaced, replaced.Type);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_refused_cancel_of_an_order_the_owner_does_not_have_carries_no_state(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", 1, 5, owner: 2);
        Command refused = Commands.Cancel(1, 1, "c1", "b1", Side.Buy);
        RefusedRequests.Refuse(ref refused, RejectReason.InvalidSide);

        EngineEvent rejected = Assert.Single(h.Send(refused));

        Assert.Equal((EventType.CancelRejected, CommandType.Cancel, RejectReason.InvalidSide), (rejected.Type, rejected.SourceCommand, rejected.RejectReason));
        Assert.Equal(0, rejected.OrderId);
        Assert.Single(h.Bids());
    }

    [Fact]
    public void Only_a_cancel_or_replace_can_be_refused_and_an_unknown_reason_reads_as_unknown_command()
    {
        Command order = Commands.Limit(1, 1, "b1", Side.Buy, 100, 5);
        Assert.Throws<ArgumentException>(() => RefusedRequests.Refuse(ref order, RejectReason.PriceOffTick));

        Command cancel = Commands.Cancel(1, 1, "c1", "b1", Side.Buy);
        RefusedRequests.Refuse(ref cancel, RejectReason.PriceOffTick);
        Assert.Equal((CommandType.CancelRefused, RejectReason.PriceOffTick), (cancel.Type, RefusedRequests.ReasonOf(in cancel)));
        cancel.Quantity = 250;
        Assert.Equal(RejectReason.UnknownCommand, RefusedRequests.ReasonOf(in cancel));
    }
}
