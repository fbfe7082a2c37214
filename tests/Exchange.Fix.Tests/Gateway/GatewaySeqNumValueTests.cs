using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// SEQNUM values of zero or below, from the wire: FIX's SEQNUM is a positive sequence number, so each is refused in a
/// way the client can read, never acted on as a number.
/// </summary>
public sealed class GatewaySeqNumValueTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(-3)]
    public void A_msgseqnum_below_one_ends_the_session_with_a_logout_naming_it(int seq)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(h.Message("D", GatewayHarness.NewOrder("ORD-1"), seq: seq));

        Dictionary<int, string> logout = Assert.Single(h.TakeSent());
        Assert.Equal("5", logout[35]);
        Assert.Contains("MsgSeqNum(34)", logout[58], StringComparison.Ordinal);
        Assert.Empty(h.Publisher.Commands);
        Assert.False(h.Gateway.IsLoggedOn(0));
    }

    [Theory]
    [InlineData("7=0|16=0|", "7")]
    [InlineData("7=-2|16=0|", "7")]
    [InlineData("7=1|16=-1|", "16")]
    public void A_resend_request_with_a_number_below_one_is_rejected_on_that_tag_and_serves_nothing(string fields, string tag)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("2", fields);

        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("3", reject[35]);
        Assert.Equal(tag, reject[371]);
        Assert.Equal("2", reject[45]);
        Assert.Equal(3, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    [Fact]
    public void A_resend_request_with_a_negative_end_ahead_of_a_gap_is_not_served_at_once()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(h.Message("2", "7=1|16=-1|", seq: 5));

        Dictionary<int, string> ours = Assert.Single(h.TakeSent());
        Assert.Equal("2", ours[35]); // only our ResendRequest for 2–4; nothing of ours is resent
    }

    [Theory]
    [InlineData("123=Y|36=0|")]
    [InlineData("123=Y|36=-5|")]
    [InlineData("36=0|")]
    public void A_sequence_reset_to_a_number_below_one_is_rejected_and_moves_nothing(string fields)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("4", fields);

        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("3", reject[35]);
        Assert.Equal("36", reject[371]);
        Assert.True(h.Gateway.GetSession(0).NextTargetSeqNum <= 3);
        Assert.True(h.Gateway.IsLoggedOn(0));
    }
}
