using Exchange.Core.Commands;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// <see cref="SessionConfig.MaxApplicationMessagesPerSecond"/>: past the limit a new order, replace, status request or
/// market-data subscription is not acted on and a BusinessMessageReject names it; messages that take something away,
/// and those released from the gap queue, are never refused but count.
/// </summary>
public class GatewayThrottleTests
{
    private const string Now = "60=20260302-09:30:00.000|";
    private const string OverLimit = "Throttle limit exceeded: too many messages per second on this session";

    private static GatewayHarness LoggedOn(int perSecond)
    {
        var h = new GatewayHarness(sessions: [new SessionConfig("VENUE", "CLIENT1") { MaxApplicationMessagesPerSecond = perSecond }]);
        h.LogOn();
        return h;
    }

    [Fact]
    public void A_new_order_past_the_limit_gets_a_business_reject_naming_it_and_a_second_later_orders_pass_again()
    {
        using GatewayHarness h = LoggedOn(2);
        h.Send("D", GatewayHarness.NewOrder("A"));
        h.Send("D", GatewayHarness.NewOrder("B"));
        h.Send("D", GatewayHarness.NewOrder("C"));

        Assert.Equal(["A", "B"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal(("j", "4", "D", "C", "0"), (reject[35], reject[45], reject[372], reject[379], reject[380]));
        Assert.Equal(OverLimit, reject[58]);
        Assert.Contains(h.Log.Lines, line => line.Contains("over its limit of 2 application messages per second", StringComparison.Ordinal));

        h.Clock.Advance(TimeSpan.FromSeconds(1));
        h.Send("D", GatewayHarness.NewOrder("D"));
        Assert.Equal("D", h.Publisher.Commands[^1].ClOrdId.ToString());
        Assert.Empty(h.TakeSent());
    }

    [Fact]
    public void A_possible_resend_past_the_limit_is_refused_without_any_claim_about_the_order()
    {
        using GatewayHarness h = LoggedOn(1);
        h.Send("D", GatewayHarness.NewOrder("A"));
        h.Feed(h.Message("D", GatewayHarness.NewOrder("A"), header: "97=Y|"));

        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal(("j", "A"), (reject[35], reject[379]));
        Assert.False(reject.ContainsKey(39));
        Assert.Single(h.Publisher.Commands);
    }

    [Fact]
    public void Replaces_status_requests_and_subscriptions_past_the_limit_are_refused_before_the_engine()
    {
        using GatewayHarness h = LoggedOn(1);
        h.Send("D", GatewayHarness.NewOrder("A"));

        h.Send("G", $"41=A|11=A2|55=AAPL|54=1|{Now}38=200|40=2|44=143.42|");
        h.Send("H", "11=A|55=AAPL|54=1|790=S-1|");
        h.Send("V", "262=MD-1|263=1|264=5|267=2|269=0|269=1|146=1|55=AAPL|");

        Assert.Single(h.Publisher.Commands);
        Assert.Empty(h.MarketData.Requests);
        List<Dictionary<int, string>> sent = h.TakeSent();
        Assert.Equal([("j", "G", "A2"), ("j", "H", "A"), ("j", "V", "MD-1")], sent.Select(m => (m[35], m[372], m[379])));
        Assert.All(sent, m => Assert.Equal(OverLimit, m[58]));
    }

    [Fact]
    public void Cancels_mass_cancels_and_unsubscribes_are_never_refused_but_count()
    {
        using GatewayHarness h = LoggedOn(2);
        h.Send("V", "262=MD-1|263=1|264=5|267=2|269=0|269=1|146=1|55=AAPL|");
        for (int i = 0; i < 3; i++)
        {
            h.Send("F", $"41=A|11=X{i}|55=AAPL|54=1|{Now}");
        }

        h.Send("q", "11=MC-1|530=7|" + Now);
        h.Send("V", "262=MD-1|263=2|264=5|267=2|269=0|269=1|146=1|55=AAPL|");
        h.Send("D", GatewayHarness.NewOrder("B"));

        Assert.Equal(
            [CommandType.Cancel, CommandType.Cancel, CommandType.Cancel, CommandType.MassCancel],
            h.Publisher.Commands.Select(c => c.Type));
        Assert.Equal(2, h.MarketData.Requests.Count); // the subscription and its end
        Dictionary<int, string> refused = Assert.Single(h.TakeSent()); // the new order, past six counted messages
        Assert.Equal(("j", "D", "B"), (refused[35], refused[372], refused[379]));

        // Six counted at a limit of two: the new order passes again only three seconds on.
        h.Clock.Advance(TimeSpan.FromSeconds(2));
        h.Send("D", GatewayHarness.NewOrder("C"));
        Assert.Equal("j", Assert.Single(h.TakeSent())[35]);
        h.Clock.Advance(TimeSpan.FromSeconds(1));
        h.Send("D", GatewayHarness.NewOrder("E"));
        Assert.Equal("E", h.Publisher.Commands[^1].ClOrdId.ToString());
    }

    [Fact]
    public void Orders_released_from_the_gap_queue_are_not_refused_for_arriving_together()
    {
        using GatewayHarness h = LoggedOn(2);
        int gap = h.NextClientSeq;
        h.NextClientSeq = gap + 1;
        for (int i = 0; i < 3; i++)
        {
            h.Send("D", GatewayHarness.NewOrder($"Q{i + 1}"));
            h.Clock.Advance(TimeSpan.FromSeconds(1));
        }

        Assert.Empty(h.Publisher.Commands); // held behind the gap; the venue asked for a resend
        h.TakeSent();
        h.Feed(h.Message("D", GatewayHarness.NewOrder("Q0"), seq: gap, header: "43=Y|122=20260302-09:30:00.000|"));

        Assert.Equal(["Q0", "Q1", "Q2", "Q3"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.DoesNotContain(h.TakeSent(), m => m[35] == "j");
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
