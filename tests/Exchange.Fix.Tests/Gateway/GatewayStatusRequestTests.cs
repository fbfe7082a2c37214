using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// OrderStatusRequest (35=H): mapped to a status request for the engine, and its answers encoded as Order Status
/// ExecutionReports (150=I, ExecID 0, OrdStatusReqID echoed): the live order's state, or 39=8 for an unknown order.
/// </summary>
public class GatewayStatusRequestTests
{
    [Fact]
    public void A_status_request_is_published_with_the_order_s_keys_and_its_request_id()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("H", "11=ORD-1|790=ST-1|55=MSFT|54=2|");

        Assert.Empty(h.TakeSent());
        Command c = Assert.Single(h.Publisher.Commands);
        Assert.Equal((CommandType.StatusRequest, Side.Sell, 1), (c.Type, c.Side, c.InstrumentId));
        Assert.Equal(("ORD-1", "ST-1"), (c.ClOrdId.ToString(), c.OrigClOrdId.ToString()));
    }

    [Fact]
    public void Without_a_request_id_the_command_carries_none()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("H", "11=ORD-1|55=AAPL|54=1|37=12345|");

        Command c = Assert.Single(h.Publisher.Commands);
        Assert.True(c.OrigClOrdId.IsEmpty);
    }

    [Theory]
    [InlineData("790=ST-1|55=AAPL|54=1|", "11")]
    [InlineData("11=ORD-1|55=AAPL|", "54")]
    [InlineData("11=ORD-1|54=1|", "55")]
    [InlineData("11=ORD-1|790=123456789012345678901234567890123|55=AAPL|54=1|", "790")]
    public void A_missing_or_unusable_field_gets_a_session_reject_naming_it(string fields, string tag)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("H", fields);

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal(("3", tag, "H"), (reject[35], reject[371], reject[372]));
    }

    [Fact]
    public void An_unknown_symbol_is_answered_by_the_gateway_with_an_order_status_that_names_no_order()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("H", "11=ORD-1|790=ST-2|55=NOPE|54=1|");

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> er = Assert.Single(h.TakeSent());
        Assert.Equal(("8", "I", "8", "NONE", "1"), (er[35], er[150], er[39], er[37], er[103]));
        Assert.Equal(("ORD-1", "ST-2", "NOPE", "Unknown symbol"), (er[11], er[790], er[55], er[58]));
        Assert.Equal("0", er[17]);
        Assert.False(er.ContainsKey(38), "no order, so no OrderQty (38=0 would read as the order's)");
    }

    [Fact]
    public void The_engine_s_report_of_a_live_order_is_an_order_status_with_its_state_and_the_request_id()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("H", "11=ORD-1|790=ST-3|55=AAPL|54=1|");
        Command request = Assert.Single(h.Publisher.Commands);

        var status = new EngineEvent
        {
            Type = EventType.OrderStatus, SourceCommand = CommandType.StatusRequest, EventId = 9, OwnerId = request.OwnerId,
            InstrumentId = 0, Side = Side.Buy, OrderType = OrderType.Limit, TimeInForce = TimeInForce.Day, OrderId = 77,
            Price = 1_434_200, OrderQuantity = 100, LeavesQuantity = 60, CumulativeQuantity = 40, CumulativeNotional = 40 * 1_434_200,
            ClOrdId = request.ClOrdId, OrigClOrdId = request.OrigClOrdId, Timestamp = request.Timestamp,
        };
        h.Gateway.SendEvent(status, default);

        Dictionary<int, string> er = Assert.Single(h.TakeSent());
        Assert.Equal(("8", "I", "1", "77", "0"), (er[35], er[150], er[39], er[37], er[17]));
        Assert.Equal(("ORD-1", "ST-3", "60", "40", "143.42"), (er[11], er[790], er[151], er[14], er[6]));
        Assert.False(er.ContainsKey(41));
        Assert.False(er.ContainsKey(103));
    }

    [Fact]
    public void The_engine_s_unknown_order_answer_is_an_order_status_with_ord_status_8_and_reason_5()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("H", "11=GONE-1|55=AAPL|54=2|");
        Command request = Assert.Single(h.Publisher.Commands);

        EngineEvent unknown = EngineEvent.Refusal(in request, RejectReason.UnknownOrder);
        unknown.Type = EventType.OrderStatus;
        unknown.EventId = 10;
        h.Gateway.SendEvent(unknown, default);

        Dictionary<int, string> er = Assert.Single(h.TakeSent());
        Assert.Equal(("I", "8", "NONE", "5", "0"), (er[150], er[39], er[37], er[103], er[17]));
        Assert.Equal(("GONE-1", "2", "AAPL", "0", "0"), (er[11], er[54], er[55], er[151], er[14]));
        Assert.False(er.ContainsKey(790));
    }

    [Fact]
    public void A_status_request_the_stopping_venue_cannot_take_names_no_order_and_says_why()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Publisher.Accept = false;
        h.Send("H", "11=ORD-1|790=ST-9|55=AAPL|54=1|");

        Dictionary<int, string> er = Assert.Single(h.TakeSent());
        Assert.Equal(("I", "8", "NONE", "99", "venue is stopping"), (er[150], er[39], er[37], er[103], er[58]));
    }

    [Theory]
    [InlineData(CancelReason.None, 100, "2")]
    [InlineData(CancelReason.Requested, 40, "4")]
    [InlineData(CancelReason.ImmediateOrCancelRemainder, 0, "4")]
    public void The_engine_s_report_of_an_ended_order_says_how_it_ended_with_no_leaves(CancelReason end, long cumulative, string ordStatus)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("H", "11=ORD-1|55=AAPL|54=1|");
        Command request = Assert.Single(h.Publisher.Commands);

        EngineEvent status = EngineEvent.Refusal(in request, RejectReason.None);
        (status.Type, status.EventId, status.OrderId, status.CancelReason) = (EventType.OrderStatus, 12, 77, end);
        (status.OrderQuantity, status.CumulativeQuantity, status.CumulativeNotional) = (100, cumulative, cumulative * 1_434_200);
        h.Gateway.SendEvent(status, default);

        Dictionary<int, string> er = Assert.Single(h.TakeSent());
        Assert.Equal(("I", ordStatus, "77", "0", "100"), (er[150], er[39], er[37], er[151], er[38]));
        Assert.Equal((cumulative.ToString(System.Globalization.CultureInfo.InvariantCulture), cumulative > 0 ? "143.42" : "0"), (er[14], er[6]));
        Assert.False(er.ContainsKey(103));
        Assert.False(er.ContainsKey(58));
    }
}
