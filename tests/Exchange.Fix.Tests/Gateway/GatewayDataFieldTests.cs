using Exchange.Fix.Tests.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>Orders carrying a DATA field (EncodedText) through the gateway: accepted by its count, rejected when the count is wrong.</summary>
public sealed class GatewayDataFieldTests
{
    private static string OrderWithEncodedText(string clOrdId, string data, int? count = null) =>
        GatewayHarness.NewOrder(clOrdId) + $"58=hello|354={count ?? data.Length}|355={data}|";

    [Fact]
    public void Order_with_soh_inside_its_encoded_text_is_published()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", OrderWithEncodedText("ORD-1", DataFieldTestData.Tricky));

        Assert.Equal("ORD-1", Assert.Single(h.Publisher.Commands).ClOrdId.ToString());
        Assert.Empty(h.TakeSent());
    }

    [Fact]
    public void Order_whose_encoded_text_length_is_wrong_gets_a_session_reject_and_is_not_published()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", OrderWithEncodedText("ORD-1", "ab|cd", count: 3));

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("3", reject[35]);
        Assert.Equal("2", reject[45]);
        Assert.Equal("354", reject[371]);
        Assert.Equal("D", reject[372]);
        Assert.Equal("5", reject[373]);
        Assert.Equal(3, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    [Fact]
    public void Order_with_encoded_text_queued_behind_a_gap_is_published_once_it_fills()
    {
        // A queued message is parsed again from its copy, without the dictionary: the DATA value must be read the same way.
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(h.Message("D", OrderWithEncodedText("THIRD", "x|55=MSFT|"), seq: 3));
        Assert.Empty(h.Publisher.Commands);

        h.Feed(h.Message("D", GatewayHarness.NewOrder("SECOND"), seq: 2));

        Assert.Equal(["SECOND", "THIRD"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.All(h.Publisher.Commands, c => Assert.Equal(GatewayHarness.Aapl.Id, c.InstrumentId));
    }
}
