using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

public sealed class EdgeRuleTests
{
    [Fact]
    public void Logon_on_an_active_session_gets_logout_then_disconnect()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.Logon(2));

        Assert.Equal("Logon received on an active session", h.Single("5").Get(58));
        Assert.Equal([DisconnectReason.UnexpectedLogon], h.Transport.Disconnects);
    }

    [Fact]
    public void Test_request_without_testreqid_is_rejected_and_not_answered()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.TestRequest(2, ""));

        SentMessage reject = h.Single("3");
        Assert.Equal(112, reject.GetInt(371));
        Assert.Equal(1, reject.GetInt(373));
        Assert.DoesNotContain(h.Sent, m => m.MsgType == "0");
        Assert.Equal(3, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void Over_long_testreqid_is_rejected_rather_than_echoed_truncated()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.TestRequest(2, new string('x', 129)));

        Assert.Equal(5, h.Single("3").GetInt(373));
        Assert.DoesNotContain(h.Sent, m => m.MsgType == "0");
    }

    [Fact]
    public void Resend_request_without_beginseqno_is_rejected()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.ResendRequest(2, 0, 0));

        SentMessage reject = h.Single("3");
        Assert.Equal(7, reject.GetInt(371));
        Assert.Equal(3, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void Queue_behind_a_gap_is_bounded_and_dropped_messages_are_recovered_by_the_resend()
    {
        using var h = new SessionHarness(new SessionConfig(SessionHarness.Venue, SessionHarness.Client) { MaxQueuedMessages = 2 });
        h.LogOn();

        h.Feed(TestMsg.Order(3));
        h.Feed(TestMsg.Order(4));
        h.Feed(TestMsg.Order(5)); // over the cap: dropped, it lies inside the requested range

        Assert.Equal(2, h.Session.QueuedCount);
        h.Feed(TestMsg.Order(2).AsPossDup(h.Clock.UtcNowNanos));
        Assert.Equal([2, 3, 4], h.App.DeliveredSeqs);

        h.Feed(TestMsg.Order(5).AsPossDup(h.Clock.UtcNowNanos));
        Assert.Equal([2, 3, 4, 5], h.App.DeliveredSeqs);
    }

    [Fact]
    public void Send_application_assigns_the_next_sender_number_without_possdup()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(2));

        int seq = h.Session.SendApplication("8"u8, "37=O1\u0001"u8);

        Assert.Equal(2, seq);
        Assert.Equal(3, h.Session.NextTargetSeqNum);
        SentMessage er = h.Single("8");
        Assert.Equal(2, er.SeqNum);
        Assert.False(er.Has(43));
    }
}
