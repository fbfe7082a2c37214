using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// OrderMassCancelRequest (35=q): mapped to a mass cancel for the engine (one symbol or everything, one side or both),
/// refused by the gateway with an OrderMassCancelReport (35=r, 531=0) for kinds the venue does not carry out, and the
/// engine's report encoded with the count.
/// </summary>
public class GatewayMassCancelTests
{
    private const string Now = "60=20260302-09:30:00.000|";

    [Theory]
    [InlineData("11=MC-1|530=1|55=MSFT|", 1, Side.None)]
    [InlineData("11=MC-1|530=1|55=AAPL|54=2|", 0, Side.Sell)]
    [InlineData("11=MC-1|530=7|", -1, Side.None)]
    [InlineData("11=MC-1|530=7|55=NOPE|54=1|", -1, Side.Buy)]
    public void A_mass_cancel_is_published_for_one_symbol_or_all_and_one_side_or_both(string fields, int instrument, Side side)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("q", fields + Now);

        Assert.Empty(h.TakeSent());
        Command c = Assert.Single(h.Publisher.Commands);
        Assert.Equal((CommandType.MassCancel, instrument, side, "MC-1"), (c.Type, c.InstrumentId, c.Side, c.ClOrdId.ToString()));
    }

    [Theory]
    [InlineData("11=MC-2|530=3|", "3", "0", "Mass cancel is carried out for one symbol (530=1) or all orders (530=7) only")]
    [InlineData("11=MC-2|530=1|55=NOPE|", "1", "1", "Unknown symbol")]
    public void A_kind_the_venue_does_not_carry_out_or_an_unknown_symbol_is_refused_with_a_report(string fields, string type, string reason, string text)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("q", fields + Now);

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> report = Assert.Single(h.TakeSent());
        Assert.Equal(("r", "MC-2", type, "0", reason), (report[35], report[11], report[530], report[531], report[532]));
        Assert.Equal(("0", text), (report[533], report[58]));
        Assert.True(report.ContainsKey(37));
    }

    [Theory]
    [InlineData("530=7|", "11")]
    [InlineData("11=MC-3|", "530")]
    [InlineData("11=MC-3|530=1|", "55")]
    [InlineData("11=MC-3|530=Z|", "530")]
    public void A_missing_or_invalid_field_gets_a_session_reject_naming_it(string fields, string tag)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("q", fields + Now);

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal(("3", tag, "q"), (reject[35], reject[371], reject[372]));
    }

    [Fact]
    public void The_engine_s_report_carries_the_count_and_echoes_the_request()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("q", "11=MC-4|530=1|55=AAPL|54=1|" + Now);
        Command request = Assert.Single(h.Publisher.Commands);

        h.Gateway.SendEvent(EngineReport(request, eventId: 41, affectedOrders: 3), default);

        Dictionary<int, string> r = Assert.Single(h.TakeSent());
        Assert.Equal(("r", "41", "MC-4", "1", "1"), (r[35], r[37], r[11], r[530], r[531]));
        Assert.Equal(("AAPL", "1", "3"), (r[55], r[54], r[533]));
        Assert.False(r.ContainsKey(532));
        Assert.False(r.ContainsKey(58));
    }

    [Fact]
    public void A_report_for_every_instrument_names_no_symbol_and_the_cancels_are_execution_reports()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("q", "11=MC-5|530=7|" + Now);
        Command request = Assert.Single(h.Publisher.Commands);

        EngineEvent report = EngineReport(request, eventId: 50, affectedOrders: 1);
        var cancelled = new EngineEvent
        {
            Type = EventType.Cancelled, SourceCommand = CommandType.MassCancel, CancelReason = CancelReason.MassCancel, EventId = 51,
            OwnerId = request.OwnerId, InstrumentId = 0, Side = Side.Buy, OrderType = OrderType.Limit, OrderId = 9, Price = 1_434_200,
            OrderQuantity = 100, ClOrdId = ClOrdId.From("ORD-9"), Timestamp = request.Timestamp,
        };
        h.Gateway.SendEvent(report, default);
        h.Gateway.SendEvent(cancelled, default);

        List<Dictionary<int, string>> sent = h.TakeSent();
        Assert.Equal(("r", "7", "7", "1"), (sent[0][35], sent[0][530], sent[0][531], sent[0][533]));
        Assert.False(sent[0].ContainsKey(55));
        Assert.Equal(("8", "4", "4", "ORD-9", "0"), (sent[1][35], sent[1][150], sent[1][39], sent[1][11], sent[1][151]));
        Assert.Equal("Canceled by an order mass cancel request", sent[1][58]);
    }

    [Fact]
    public void A_mass_cancel_the_stopping_venue_cannot_take_is_refused_with_a_report_that_says_why()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Publisher.Accept = false;
        h.Send("q", "11=MC-9|530=7|" + Now);

        Dictionary<int, string> report = Assert.Single(h.TakeSent());
        Assert.Equal(("r", "7", "0", "99", "venue is stopping"), (report[35], report[530], report[531], report[532], report[58]));
    }

    /// <summary>The report the engine gives a carried-out mass cancel (as the engine builds it: the request echoed).</summary>
    private static EngineEvent EngineReport(in Command request, long eventId, long affectedOrders)
    {
        EngineEvent report = EngineEvent.Refusal(in request, RejectReason.None);
        report.Type = EventType.MassCancelReport;
        report.EventId = eventId;
        report.AffectedOrders = affectedOrders;
        return report;
    }
}
