using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// A mass cancel takes out every resting order of its owner on the instrument (or all) and side (or both), reports
/// first with the count, then one Cancelled event per order in book order; nobody else's orders move. Every strategy
/// combination.
/// </summary>
public class MassCancelScenarioTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    private static Command MassCancel(int instrument, Side side = Side.None, int owner = 1) => new()
    {
        Type = CommandType.MassCancel, InstrumentId = instrument, OwnerId = owner, Side = side, ClOrdId = ClOrdId.From("MC-1"),
    };

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Every_order_of_the_owner_on_every_instrument_is_cancelled_after_the_report_in_book_order(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", -2, 5);
        h.Buy("b2", -1, 5, TimeInForce.GoodTillCancel);
        h.Sell("s1", 3, 5);
        h.Buy("x1", -1, 5, owner: 2);
        h.Sell("s2", 4, 5, instrument: 2);
        h.Buy("b3", -1, 10, instrument: 0);
        h.Sell("s3", 1, 10);
        h.Buy("t1", 1, 4, owner: 2); // s3 partly filled: its cancel reports the fill

        EngineEvent[] events = h.Send(MassCancel(-1));

        EngineEvent report = events[0];
        Assert.Equal((EventType.MassCancelReport, RejectReason.None, 6L), (report.Type, report.RejectReason, report.AffectedOrders));
        Assert.Equal(("MC-1", -1, Side.None), (report.ClOrdId.ToString(), report.InstrumentId, report.Side));
        Assert.Equal(["b3", "b2", "b1", "s3", "s1", "s2"], events[1..].Select(e => e.ClOrdId.ToString()));
        Assert.All(events[1..], e => Assert.Equal((EventType.Cancelled, CancelReason.MassCancel, 0L), (e.Type, e.CancelReason, e.LeavesQuantity)));
        EngineEvent partly = events.Single(e => e.ClOrdId.ToString() == "s3");
        Assert.Equal((10L, 4L), (partly.OrderQuantity, partly.CumulativeQuantity));
        Assert.Equal(["x1"], h.Bids().Select(o => o.ClOrdId.ToString()));
        Assert.Empty(h.Asks());
        Assert.Empty(h.Asks(2));
        Assert.Empty(h.Bids(0));

        EngineEvent late = Assert.Single(h.Cancel("c1", "b2", Side.Buy));
        Assert.Equal((RejectReason.TooLateToCancel, CancelReason.MassCancel), (late.RejectReason, late.CancelReason));
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Buy("b1", -2, 5)).RejectReason); // ids stay used
        Assert.Equal(EventType.Accepted, h.Buy("MC-1", -2, 5)[0].Type); // the request's own id is not recorded
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void One_instrument_and_one_side_leave_the_rest_alone(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", -1, 5);
        h.Sell("s1", 1, 5);
        h.Buy("b2", -1, 5, instrument: 2);

        EngineEvent[] events = h.Send(MassCancel(1, Side.Buy));

        Assert.Equal(1L, events[0].AffectedOrders);
        Assert.Equal("b1", Assert.Single(events[1..]).ClOrdId.ToString());
        Assert.Equal(["s1"], h.Asks().Select(o => o.ClOrdId.ToString()));
        Assert.Equal(["b2"], h.Bids(2).Select(o => o.ClOrdId.ToString()));
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Nothing_to_cancel_or_an_unknown_instrument_is_one_report_and_no_change(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", -1, 5, owner: 2);
        string before = h.BookState();

        EngineEvent none = Assert.Single(h.Send(MassCancel(-1)));
        EngineEvent unknown = Assert.Single(h.Send(MassCancel(99)));

        Assert.Equal((EventType.MassCancelReport, RejectReason.None, 0L), (none.Type, none.RejectReason, none.AffectedOrders));
        Assert.Equal((EventType.MassCancelReport, RejectReason.UnknownInstrument, 0L), (unknown.Type, unknown.RejectReason, unknown.AffectedOrders));
        Assert.Equal(before, h.BookState());
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Cancel_on_disconnect_takes_every_order_of_the_owner_without_a_report(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", -2, 5);
        h.Buy("b2", -1, 5, TimeInForce.GoodTillCancel);
        h.Sell("s1", 3, 5, owner: 2);
        h.Sell("s2", 4, 5, instrument: 2);
        h.Sell("s3", 1, 10);
        h.Buy("t1", 1, 4, owner: 2); // s3 partly filled: its cancel reports the fill

        EngineEvent[] events = h.Send(new Command { Type = CommandType.CancelOnDisconnect, OwnerId = 1, InstrumentId = -1 });

        Assert.Equal(["b2", "b1", "s3", "s2"], events.Select(e => e.ClOrdId.ToString()));
        Assert.All(events, e => Assert.Equal(
            (EventType.Cancelled, CommandType.CancelOnDisconnect, CancelReason.SessionDisconnected, 0L, 1),
            (e.Type, e.SourceCommand, e.CancelReason, e.LeavesQuantity, e.OwnerId)));
        Assert.Equal((10L, 4L), (events[2].OrderQuantity, events[2].CumulativeQuantity));
        Assert.Empty(h.Bids());
        Assert.Equal(["s1"], h.Asks().Select(o => o.ClOrdId.ToString()));
        Assert.Empty(h.Asks(2));

        EngineEvent status = Assert.Single(h.Send(new Command
        {
            Type = CommandType.StatusRequest, InstrumentId = 1, OwnerId = 1, ClOrdId = ClOrdId.From("b2"), Side = Side.Buy,
        }));
        Assert.Equal((0L, CancelReason.SessionDisconnected), (status.LeavesQuantity, status.CancelReason));
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Buy("b1", -2, 5)).RejectReason); // ids stay used
        Assert.Empty(h.Send(new Command { Type = CommandType.CancelOnDisconnect, OwnerId = 1, InstrumentId = -1 }));
    }
}
