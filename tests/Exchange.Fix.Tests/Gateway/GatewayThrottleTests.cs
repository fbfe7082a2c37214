using Exchange.Core.Commands;
using Exchange.Core.Events;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// <see cref="SessionConfig.MaxApplicationMessagesPerSecond"/>: past the limit each message type is refused the way the
/// venue refuses it for any business reason, with reason 99 and a Text saying why; cancels are never refused.
/// </summary>
public class GatewayThrottleTests
{
    private const string Now = "60=20260302-09:30:00.000|";

    private static GatewayHarness LoggedOn(int perSecond)
    {
        var h = new GatewayHarness(sessions: [new SessionConfig("VENUE", "CLIENT1") { MaxApplicationMessagesPerSecond = perSecond }]);
        h.LogOn();
        return h;
    }

    [Fact]
    public void A_new_order_past_the_limit_is_rejected_by_the_gateway_and_a_second_later_orders_pass_again()
    {
        using GatewayHarness h = LoggedOn(2);
        h.Send("D", GatewayHarness.NewOrder("A"));
        h.Send("D", GatewayHarness.NewOrder("B"));
        h.Send("D", GatewayHarness.NewOrder("C"));

        Assert.Equal(["A", "B"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal(("8", "8", "8", "C", "99"), (reject[35], reject[150], reject[39], reject[11], reject[103]));
        Assert.Equal("Throttle limit exceeded: too many messages per second on this session", reject[58]);
        Assert.Contains(h.Log.Lines, line => line.Contains("over its limit of 2 application messages per second", StringComparison.Ordinal));

        h.Clock.Advance(TimeSpan.FromSeconds(1));
        h.Send("D", GatewayHarness.NewOrder("D"));
        Assert.Equal("D", h.Publisher.Commands[^1].ClOrdId.ToString());
        Assert.Empty(h.TakeSent());
    }

    [Fact]
    public void Cancels_are_never_refused_and_do_not_count()
    {
        using GatewayHarness h = LoggedOn(1);
        for (int i = 0; i < 5; i++)
        {
            h.Send("F", $"41=A|11=X{i}|55=AAPL|54=1|{Now}");
        }

        h.Send("D", GatewayHarness.NewOrder("A"));

        Assert.Equal([.. Enumerable.Repeat(CommandType.Cancel, 5), CommandType.NewOrder], h.Publisher.Commands.Select(c => c.Type));
        Assert.Empty(h.TakeSent());
    }

    [Fact]
    public void A_replace_past_the_limit_goes_to_the_engine_refused_so_its_reject_carries_the_order_s_state()
    {
        using GatewayHarness h = LoggedOn(1);
        h.Send("D", GatewayHarness.NewOrder("A"));
        h.Send("G", $"41=A|11=A2|55=AAPL|54=1|{Now}38=200|40=2|44=143.42|");

        Command refused = h.Publisher.Commands[^1];
        Assert.Equal((CommandType.ReplaceRefused, RejectReason.Throttled), (refused.Type, RefusedRequests.ReasonOf(in refused)));
        Assert.Empty(h.TakeSent());
    }

    [Fact]
    public void Status_mass_cancel_and_market_data_requests_past_the_limit_are_refused_in_their_own_replies()
    {
        using GatewayHarness h = LoggedOn(1);
        h.Send("D", GatewayHarness.NewOrder("A"));

        h.Send("H", "11=A|55=AAPL|54=1|790=S-1|");
        h.Send("q", "11=MC-1|530=7|" + Now);
        h.Send("V", "262=MD-1|263=1|264=5|267=2|269=0|269=1|146=1|55=AAPL|");

        Assert.Single(h.Publisher.Commands);
        Assert.Empty(h.MarketData.Requests);
        List<Dictionary<int, string>> sent = h.TakeSent();
        Assert.Equal(["8", "r", "Y"], sent.Select(m => m[35]));
        Assert.Equal(("I", "8", "99", "S-1"), (sent[0][150], sent[0][39], sent[0][103], sent[0][790]));
        Assert.Equal(("0", "99"), (sent[1][531], sent[1][532]));
        Assert.Equal(("MD-1", "2"), (sent[2][262], sent[2][281]));
        Assert.All(sent, m => Assert.StartsWith("Throttle limit exceeded", m[58], StringComparison.Ordinal));
    }

    [Fact]
    public void Without_a_limit_nothing_is_refused()
    {
        using GatewayHarness h = LoggedOn(0);
        for (int i = 0; i < 2000; i++)
        {
            h.Send("D", GatewayHarness.NewOrder($"O{i}"));
        }

        Assert.Equal(2000, h.Publisher.Commands.Count);
        Assert.Empty(h.TakeSent());
    }
}
