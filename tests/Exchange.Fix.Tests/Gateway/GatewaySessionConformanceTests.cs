using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// Session rules that depend on what the codec read, so they are tested through the whole gateway (framer, dictionary,
/// header extraction, session) rather than with hand-built session messages.
/// </summary>
public sealed class GatewaySessionConformanceTests
{
    [Theory]
    [InlineData("43=Y|", "1")]
    [InlineData("43=Y|122=garbage|", "6")]
    [InlineData("43=Y|122=20260302-25:00:00.000|", "5")]
    public void Possible_duplicate_without_a_readable_orig_sending_time_is_rejected_for_what_is_wrong_with_it(string header, string reason)
    {
        // Missing is 373=1; present but unreadable gets the codec's verdict on it (373=6 for a malformed timestamp, 373=5
        // for one out of range), as any other field would. Either way the number is spent and nothing is done.
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(h.Message("D", GatewayHarness.NewOrder("ORD-1"), header: header));

        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("3", reject[35]);
        Assert.Equal("2", reject[45]);
        Assert.Equal("122", reject[371]);
        Assert.Equal(reason, reject[373]);
        Assert.Empty(h.Publisher.Commands);
        Assert.Equal(3, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    [Theory]
    [InlineData("1")]
    [InlineData("2")]
    public void Logon_asking_for_encryption_is_refused_with_a_logout_naming_encrypt_method(string encryptMethod)
    {
        using var h = new GatewayHarness();
        h.Send("A", $"98={encryptMethod}|108=30|");

        Dictionary<int, string> logout = Assert.Single(h.TakeSent());
        Assert.Equal("5", logout[35]);
        Assert.Contains("EncryptMethod(98)", logout[58], StringComparison.Ordinal);
        Assert.False(h.Gateway.IsLoggedOn(0));
        Assert.Equal(1, h.Connection.CloseCount);
    }

    [Fact]
    public void Business_message_reject_from_the_client_spends_its_number_and_is_not_answered()
    {
        // Answering it with a BusinessMessageReject of our own could start two engines rejecting each other forever.
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("j", "45=1|372=8|380=0|58=cannot process|");

        Assert.Empty(h.TakeSent());
        Assert.Equal(3, h.Gateway.GetSession(0).NextTargetSeqNum);

        h.Send("D", GatewayHarness.NewOrder("ORD-1"));
        Assert.Single(h.Publisher.Commands);
    }
}
