using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// An order status request reports the owner's live order as it stands and changes nothing; anything else it names is
/// an unknown order. Every strategy combination.
/// </summary>
public class StatusRequestScenarioTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    private static Command Status(string clOrdId, Side side, int owner = 1, int instrument = 1, string statusRequestId = "") => new()
    {
        Type = CommandType.StatusRequest, InstrumentId = instrument, OwnerId = owner, ClOrdId = ClOrdId.From(clOrdId), Side = side,
        OrigClOrdId = statusRequestId.Length == 0 ? default : ClOrdId.From(statusRequestId),
    };

    [Theory]
    [MemberData(nameof(Combinations))]
    public void A_live_order_is_reported_as_it_stands_and_nothing_changes(string combination)
    {
        var h = EngineHarness.For(combination);
        long id = h.Sell("s1", 1, 10)[0].OrderId;
        h.Buy("b1", 1, 4, owner: 2);
        string before = h.BookState();

        EngineEvent e = Assert.Single(h.Send(Status("s1", Side.Sell, statusRequestId: "Q1")));

        Assert.Equal((EventType.OrderStatus, CommandType.StatusRequest, RejectReason.None), (e.Type, e.SourceCommand, e.RejectReason));
        Assert.Equal((id, 10L, 6L, 4L), (e.OrderId, e.OrderQuantity, e.LeavesQuantity, e.CumulativeQuantity));
        Assert.Equal(4 * TestInstruments.P(1), e.CumulativeNotional);
        Assert.Equal(("s1", "Q1"), (e.ClOrdId.ToString(), e.OrigClOrdId.ToString()));
        Assert.Equal(before, h.BookState());
        Assert.Equal(EventType.Accepted, h.Sell("Q1", 5, 1)[0].Type); // the request's id is not recorded as used

        // Nor is the id asked about, when no order has it.
        Assert.Equal(RejectReason.UnknownOrder, Assert.Single(h.Send(Status("never", Side.Sell))).RejectReason);
        Assert.Equal(EventType.Accepted, h.Sell("never", 5, 1)[0].Type);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void An_order_that_ended_today_is_reported_as_it_ended_by_its_last_id_or_its_cancels(string combination)
    {
        var h = EngineHarness.For(combination);
        long filled = h.Sell("s1", 1, 10)[0].OrderId;
        long taker = h.Buy("b1", 1, 10, owner: 2)[0].OrderId;
        long cancelled = h.Sell("s2", 2, 10)[0].OrderId;
        h.Buy("b2", 2, 4, owner: 2);
        h.Cancel("x2", "s2", Side.Sell);
        long replaced = h.Sell("s3", 3, 10)[0].OrderId;
        h.Replace("s3b", "s3", Side.Sell, 3, 6);
        h.Buy("b3", 3, 6, owner: 2);

        AssertEnded(h.Send(Status("s1", Side.Sell, statusRequestId: "Q1")), filled, 10, 10, CancelReason.None, "s1", "Q1");
        AssertEnded(h.Send(Status("b1", Side.Buy, owner: 2)), taker, 10, 10, CancelReason.None, "b1", "");
        AssertEnded(h.Send(Status("s2", Side.Sell)), cancelled, 10, 4, CancelReason.Requested, "s2", "");
        AssertEnded(h.Send(Status("x2", Side.Sell)), cancelled, 10, 4, CancelReason.Requested, "x2", "");
        AssertEnded(h.Send(Status("s3b", Side.Sell)), replaced, 6, 6, CancelReason.None, "s3b", "");
        Assert.Equal(4 * TestInstruments.P(2), Assert.Single(h.Send(Status("s2", Side.Sell))).CumulativeNotional);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void An_order_of_another_side_instrument_or_owner_an_id_replaced_away_or_never_used_is_unknown(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 10);
        h.Buy("b1", 1, 10, owner: 2); // s1 fills
        h.Sell("s2", 2, 10);
        h.Replace("s3", "s2", Side.Sell, 2, 5);

        foreach (Command request in new[]
        {
            Status("s3", Side.Buy), Status("s3", Side.Sell, instrument: 0), Status("s3", Side.Sell, owner: 2),
            Status("s1", Side.Buy), Status("s2", Side.Sell), Status("never", Side.Sell, statusRequestId: "Q2"),
        })
        {
            EngineEvent e = Assert.Single(h.Send(request));
            Assert.Equal((EventType.OrderStatus, RejectReason.UnknownOrder, 0L), (e.Type, e.RejectReason, e.OrderId));
            Assert.Equal((request.ClOrdId, request.OrigClOrdId, request.Side), (e.ClOrdId, e.OrigClOrdId, e.Side));
        }
    }

    private static void AssertEnded(
        EngineEvent[] events, long orderId, long orderQuantity, long cumulative, CancelReason end, string clOrdId, string statusRequestId)
    {
        EngineEvent e = Assert.Single(events);
        Assert.Equal((EventType.OrderStatus, RejectReason.None, orderId), (e.Type, e.RejectReason, e.OrderId));
        Assert.Equal((orderQuantity, cumulative, 0L, end), (e.OrderQuantity, e.CumulativeQuantity, e.LeavesQuantity, e.CancelReason));
        Assert.Equal((clOrdId, statusRequestId), (e.ClOrdId.ToString(), e.OrigClOrdId.ToString()));
    }
}
