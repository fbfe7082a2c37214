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
    public void An_order_of_another_side_instrument_or_owner_or_one_that_ended_is_unknown(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("s1", 1, 10);
        h.Buy("b1", 1, 10, owner: 2); // b1 fills at once; s1 fills resting
        h.Sell("s2", 2, 10);

        foreach (Command request in new[]
        {
            Status("s2", Side.Buy), Status("s2", Side.Sell, instrument: 0), Status("s2", Side.Sell, owner: 2),
            Status("s1", Side.Sell), Status("b1", Side.Buy, owner: 2), Status("never", Side.Sell, statusRequestId: "Q2"),
        })
        {
            EngineEvent e = Assert.Single(h.Send(request));
            Assert.Equal((EventType.OrderStatus, RejectReason.UnknownOrder, 0L), (e.Type, e.RejectReason, e.OrderId));
            Assert.Equal((request.ClOrdId, request.OrigClOrdId, request.Side), (e.ClOrdId, e.OrigClOrdId, e.Side));
        }
    }
}
