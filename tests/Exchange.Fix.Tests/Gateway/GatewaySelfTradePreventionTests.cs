using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>The session's self-trade prevention rides on its new orders and replaces; the engine's cancels are reported with a Text saying why.</summary>
public class GatewaySelfTradePreventionTests
{
    [Theory]
    [InlineData(SelfTradePrevention.None)]
    [InlineData(SelfTradePrevention.CancelIncoming)]
    [InlineData(SelfTradePrevention.CancelResting)]
    [InlineData(SelfTradePrevention.CancelBoth)]
    public void New_orders_and_replaces_carry_the_session_s_setting(SelfTradePrevention prevention)
    {
        using var h = new GatewayHarness(sessions: [new SessionConfig("VENUE", "CLIENT1") { SelfTradePrevention = prevention }]);
        h.LogOn();

        h.Send("D", GatewayHarness.NewOrder("A"));
        h.Send("G", "41=A|11=A2|55=AAPL|54=1|60=20260302-09:30:00.000|38=200|40=2|44=143.42|");

        Assert.Equal(
            [(CommandType.NewOrder, prevention), (CommandType.Replace, prevention)],
            h.Publisher.Commands.Select(c => (c.Type, c.SelfTradePrevention)));
    }

    [Fact]
    public void A_resting_order_cancelled_by_self_trade_prevention_is_reported_with_the_reason()
    {
        using var h = new GatewayHarness();
        h.LogOn();

        h.Gateway.SendEvent(
            new EngineEvent
            {
                Type = EventType.Cancelled, SourceCommand = CommandType.NewOrder, CancelReason = CancelReason.SelfTradePrevention, EventId = 5,
                OwnerId = 0, InstrumentId = 0, OrderId = 2, ClOrdId = ClOrdId.From("S1"), Side = Side.Sell, OrderType = OrderType.Limit,
                Price = 1_434_200, OrderQuantity = 100, CumulativeQuantity = 40, CumulativeNotional = 40 * 1_434_200, Timestamp = h.Clock.UtcNowNanos,
            },
            default);

        Dictionary<int, string> report = Assert.Single(h.TakeSent());
        Assert.Equal(("4", "4", "S1", "0", "40"), (report[150], report[39], report[11], report[151], report[14]));
        Assert.Equal("Canceled by self-trade prevention: it would have traded with an order of the same session", report[58]);
        Assert.False(report.ContainsKey(41));
    }
}
