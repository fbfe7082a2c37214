using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

public sealed class TimerTests
{
    [Fact]
    public void Heartbeat_is_sent_after_heartbtint_of_outbound_silence_and_not_before()
    {
        using var h = new SessionHarness();
        h.LogOn(heartBtInt: 10);

        h.Clock.Advance(TimeSpan.FromSeconds(9));
        h.Feed(TestMsg.Heartbeat(2));
        h.Session.Poll();
        Assert.Empty(h.Sent);

        h.Clock.Advance(TimeSpan.FromSeconds(1));
        h.Session.Poll();
        SentMessage heartbeat = h.Single("0");
        Assert.False(heartbeat.Has(112));

        h.Session.Poll();
        Assert.Single(h.Sent); // the heartbeat restarted the outbound timer
    }

    [Fact]
    public void Outbound_application_traffic_postpones_the_heartbeat()
    {
        using var h = new SessionHarness();
        h.LogOn(heartBtInt: 10);

        h.Clock.Advance(TimeSpan.FromSeconds(6));
        h.Session.SendApplication("8"u8, "37=O1\u0001"u8);
        h.Feed(TestMsg.Heartbeat(2));
        h.Clock.Advance(TimeSpan.FromSeconds(6));
        h.Session.Poll();

        Assert.DoesNotContain(h.Sent, m => m.MsgType == "0");
    }

    [Fact]
    public void Test_request_after_1_2_heartbtint_of_inbound_silence_then_disconnect_after_2_4()
    {
        using var h = new SessionHarness();
        h.LogOn(heartBtInt: 10);

        h.Clock.Advance(TimeSpan.FromSeconds(11.9));
        h.Session.Poll();
        Assert.DoesNotContain(h.Sent, m => m.MsgType == "1");

        h.Clock.Advance(TimeSpan.FromSeconds(0.1));
        h.Session.Poll();
        SentMessage testRequest = h.Single("1");
        Assert.False(string.IsNullOrEmpty(testRequest.Get(112)));

        h.Clock.Advance(TimeSpan.FromSeconds(5));
        h.Session.Poll();
        Assert.Single(h.Sent, m => m.MsgType == "1"); // only one outstanding

        h.Clock.Advance(TimeSpan.FromSeconds(6.9));
        h.Session.Poll();
        Assert.False(h.Transport.IsDisconnected);

        h.Clock.Advance(TimeSpan.FromSeconds(0.1));
        h.Session.Poll();
        Assert.Equal([DisconnectReason.HeartbeatTimeout], h.Transport.Disconnects);
        Assert.Equal(SessionState.Disconnected, h.Session.State);
    }

    /// <summary>
    /// A poll that comes late (a GC pause, a starved timer thread) finds more than 2.4×HeartBtInt of silence without
    /// having asked: the client is probed first and dropped only if the probe goes unanswered.
    /// </summary>
    [Fact]
    public void A_late_poll_sends_the_test_request_before_any_disconnect()
    {
        using var h = new SessionHarness();
        h.LogOn(heartBtInt: 1);

        h.Clock.Advance(TimeSpan.FromSeconds(3));
        h.Session.Poll();
        Assert.False(h.Transport.IsDisconnected);
        Assert.Single(h.Sent, m => m.MsgType == "1");

        h.Clock.Advance(TimeSpan.FromSeconds(1.1));
        h.Session.Poll();
        Assert.False(h.Transport.IsDisconnected);

        h.Clock.Advance(TimeSpan.FromSeconds(0.1));
        h.Session.Poll();
        Assert.Equal([DisconnectReason.HeartbeatTimeout], h.Transport.Disconnects);
    }

    [Fact]
    public void Answer_to_the_test_request_keeps_the_session_alive()
    {
        using var h = new SessionHarness();
        h.LogOn(heartBtInt: 10);
        h.Clock.Advance(TimeSpan.FromSeconds(12));
        h.Session.Poll();
        string id = h.Single("1").Get(112)!;

        h.Feed(TestMsg.Heartbeat(2, id));
        h.Clock.Advance(TimeSpan.FromSeconds(12));
        h.Session.Poll();

        Assert.False(h.Transport.IsDisconnected);
        Assert.Equal(2, h.Sent.FindAll(m => m.MsgType == "1").Count);
    }

    [Fact]
    public void Test_request_is_answered_with_heartbeat_echoing_testreqid()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.TestRequest(2, "PING-42"));

        Assert.Equal("PING-42", h.Single("0").Get(112));
        Assert.Equal(3, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void Heartbtint_zero_disables_heartbeats_and_test_requests()
    {
        using var h = new SessionHarness();
        h.LogOn(heartBtInt: 0);

        h.Clock.Advance(TimeSpan.FromHours(1));
        h.Session.Poll();

        Assert.Empty(h.Sent);
        Assert.False(h.Transport.IsDisconnected);
    }
}
