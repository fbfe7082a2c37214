using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

public sealed class LogoutTests
{
    [Fact]
    public void Client_logout_is_answered_with_logout_then_disconnect()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.Logout(2));

        h.Single("5");
        Assert.Equal([DisconnectReason.LogoutCompleted], h.Transport.Disconnects);
        Assert.Equal([DisconnectReason.LogoutCompleted], h.App.Disconnects);
        Assert.Equal(SessionState.Disconnected, h.Session.State);
        Assert.Equal(3, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void Venue_logout_waits_for_the_reply_then_disconnects()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Session.Logout("Venue closing"u8);

        Assert.Equal("Venue closing", h.Single("5").Get(58));
        Assert.Equal(SessionState.LogoutSent, h.Session.State);
        Assert.False(h.Transport.IsDisconnected);

        h.Feed(TestMsg.Logout(2));

        Assert.Single(h.Sent); // no second Logout in reply to the reply
        Assert.Equal([DisconnectReason.LogoutCompleted], h.Transport.Disconnects);
    }

    [Fact]
    public void Venue_logout_disconnects_when_the_reply_does_not_come_within_the_timeout()
    {
        using var h = new SessionHarness(new SessionConfig(SessionHarness.Venue, SessionHarness.Client) { LogoutTimeout = TimeSpan.FromSeconds(2) });
        h.LogOn();
        h.Session.Logout(default);

        h.Clock.Advance(TimeSpan.FromSeconds(1.9));
        h.Session.Poll();
        Assert.False(h.Transport.IsDisconnected);

        h.Clock.Advance(TimeSpan.FromSeconds(0.1));
        h.Session.Poll();
        Assert.Equal([DisconnectReason.LogoutTimeout], h.Transport.Disconnects);
    }

    [Fact]
    public void While_waiting_for_the_logout_reply_resend_requests_are_still_served()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Session.SendApplication("8"u8, "37=O1\u0001"u8);
        h.Session.Logout(default);
        h.Sent.Clear();

        h.Feed(TestMsg.ResendRequest(2, 2, 0));

        Assert.Equal("8", h.Sent[0].MsgType);
        Assert.Equal(SessionState.LogoutSent, h.Session.State);
    }

    [Fact]
    public void Client_logout_ahead_of_a_gap_is_answered_once_the_gap_is_filled()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.Logout(4));

        // The orders 2 and 3 are asked for first; the client is still waiting for our Logout.
        Assert.Equal((2, 0), (h.Single("2").GetInt(7), h.Single("2").GetInt(16)));
        Assert.DoesNotContain(h.Sent, m => m.MsgType == "5");
        Assert.False(h.Transport.IsDisconnected);

        long now = h.Clock.UtcNowNanos;
        h.Feed(TestMsg.Order(2).AsPossDup(now));
        h.Feed(TestMsg.Order(3).AsPossDup(now));

        Assert.Equal([2, 3], h.App.DeliveredSeqs);
        Assert.Equal("5", h.Sent[^1].MsgType);
        Assert.Equal([DisconnectReason.LogoutCompleted], h.Transport.Disconnects);
        Assert.Equal(5, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void Client_logout_ahead_of_a_gap_is_answered_after_the_logout_timeout_if_the_gap_stays_open()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Logout(4));

        h.Clock.Advance(h.Config.LogoutTimeout - TimeSpan.FromMilliseconds(1));
        h.Session.Poll();
        Assert.False(h.Transport.IsDisconnected);

        h.Clock.Advance(TimeSpan.FromMilliseconds(1));
        h.Session.Poll();

        Assert.Equal("Logout answered before the gap below it was filled", h.Single("5").Get(58));
        Assert.Equal([DisconnectReason.LogoutCompleted], h.Transport.Disconnects);
    }

    [Fact]
    public void Client_logout_ahead_of_a_gap_is_answered_when_a_gap_fill_jumps_past_it()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Logout(4));

        // The replay of 2..: everything up to and including the Logout was admin, so one gap fill covers it.
        h.Feed(TestMsg.SequenceReset(2, 5, gapFill: true).AsPossDup(h.Clock.UtcNowNanos));

        SentMessage logout = h.Single("5");
        Assert.False(logout.Has(58)); // an ordinary answer, not the timer's
        Assert.Equal([DisconnectReason.LogoutCompleted], h.Transport.Disconnects);
    }

    [Fact]
    public void Reply_to_the_venues_logout_ends_the_session_at_once_even_above_a_gap()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Session.Logout("Venue closing"u8);

        h.Feed(TestMsg.Logout(4));

        Assert.DoesNotContain(h.Sent, m => m.MsgType == "2");
        Assert.Equal([DisconnectReason.LogoutCompleted], h.Transport.Disconnects);
    }
}
