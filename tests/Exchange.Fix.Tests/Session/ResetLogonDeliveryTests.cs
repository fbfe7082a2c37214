using System.Text;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// Messages stored while no client was logged on (queued) must reach the client whichever way it logs on next: by its
/// ResendRequest after a plain Logon, or, after a Logon with ResetSeqNumFlag=Y, as new messages right behind the reply
/// Logon. Messages already written to a logged-on client are never sent again.
/// </summary>
public sealed class ResetLogonDeliveryTests : IDisposable
{
    private readonly TempStoreDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private static byte[] Report(string execId) => Encoding.ASCII.GetBytes($"37=O1\u000117={execId}\u000160=20260302-09:30:00.000\u0001");

    private static string ExecIds(IEnumerable<SentMessage> messages) => string.Join(' ', messages.Where(m => m.MsgType == "8").Select(m => m.Get(17)));

    /// <summary>Logged on; E1 written live (2); the client leaves; E2 and E3 are stored while it is away (3, 4).</summary>
    private static SessionHarness SessionWithReportsQueued(ISessionStore? store = null)
    {
        var h = new SessionHarness(store: store);
        h.LogOn();
        h.Session.SendApplication("8"u8, Report("E1"));
        h.Session.OnTransportClosed();
        h.Clock.Advance(TimeSpan.FromMinutes(1));
        h.Session.SendApplication("8"u8, Report("E2"));
        h.Session.SendApplication("8"u8, Report("E3"));
        h.Clock.Advance(TimeSpan.FromMinutes(1));
        return h;
    }

    [Fact]
    public void Reports_stored_while_the_client_was_away_follow_the_reply_to_a_reset_logon_as_new_messages()
    {
        using SessionHarness h = SessionWithReportsQueued();

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(1, reset: true)));

        Assert.Equal(["A 1", "8 2", "8 3"], h.Sent.ConvertAll(m => $"{m.MsgType} {m.SeqNum}"));
        Assert.Equal("Y", h.Sent[0].Get(141));
        Assert.Equal("E2 E3", ExecIds(h.Sent));
        Assert.All(h.Sent, m => Assert.False(m.Has(43)));
        Assert.All(h.Sent, m => Assert.Equal(h.Clock.UtcNowNanos, m.GetLong(52)));
        Assert.All(h.Sent.Skip(1), m => Assert.Equal("20260302-09:30:00.000", m.Get(60)));
        Assert.Equal(4, h.Session.NextSenderSeqNum);

        // Numbering goes on after them, and a resend of the new numbers brings the same reports as PossDup.
        h.Session.SendApplication("8"u8, Report("E4"));
        h.Feed(TestMsg.ResendRequest(2, 2, 3));
        Assert.Equal(["8 4 E4", "8 2 E2", "8 3 E3"], h.Sent.Skip(3).Select(m => $"{m.MsgType} {m.SeqNum} {m.Get(17)}"));
        Assert.All(h.Sent.Skip(4), m => Assert.Equal(h.Clock.UtcNowNanos, m.GetLong(122)));
    }

    [Fact]
    public void A_plain_logon_leaves_them_to_the_resend_request_and_a_later_reset_sends_only_what_came_after()
    {
        using SessionHarness h = SessionWithReportsQueued();

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(2)));
        Assert.Equal(["A 5"], h.Sent.ConvertAll(m => $"{m.MsgType} {m.SeqNum}"));
        h.Feed(TestMsg.ResendRequest(3, 3, 0));
        Assert.Equal(["8 3 Y", "8 4 Y", "4 5 Y"], h.Sent.Skip(1).Select(m => $"{m.MsgType} {m.SeqNum} {m.Get(43)}"));
        Assert.Equal("E2 E3", ExecIds(h.Sent));
        h.Session.SendApplication("8"u8, Report("E4")); // live
        h.Session.OnTransportClosed();
        h.Session.SendApplication("8"u8, Report("E5")); // away

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(1, reset: true)));

        Assert.Equal(["A 1", "8 2"], h.Sent.ConvertAll(m => $"{m.MsgType} {m.SeqNum}"));
        Assert.Equal("E5", ExecIds(h.Sent));
    }

    [Fact]
    public void Queued_reports_a_plain_logon_did_not_resend_follow_an_in_session_reset()
    {
        using SessionHarness h = SessionWithReportsQueued();
        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(2)));
        h.Session.SendApplication("8"u8, Report("E4")); // live, as 6
        h.Sent.Clear();

        h.Feed(TestMsg.Logon(1, reset: true));

        Assert.Equal(["A 1", "8 2", "8 3"], h.Sent.ConvertAll(m => $"{m.MsgType} {m.SeqNum}"));
        Assert.Equal("E2 E3", ExecIds(h.Sent));
        Assert.Equal(SessionState.Active, h.Session.State);
    }

    [Fact]
    public void A_reset_logon_numbered_above_one_gets_the_reply_the_queued_reports_then_the_resend_request()
    {
        using SessionHarness h = SessionWithReportsQueued();

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(3, reset: true)));

        Assert.Equal(["A 1", "8 2", "8 3", "2 4"], h.Sent.ConvertAll(m => $"{m.MsgType} {m.SeqNum}"));
        Assert.Equal((1, 0), (h.Sent[3].GetInt(7), h.Sent[3].GetInt(16)));
    }

    [Fact]
    public void Reports_stored_after_a_venue_logout_was_sent_are_queued_too()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Session.Logout("closing"u8);
        h.Session.SendApplication("8"u8, Report("E1")); // stored; the session only waits for the client's Logout
        h.Feed(TestMsg.Logout(2));

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(1, reset: true)));

        Assert.Equal(["A 1", "8 2"], h.Sent.ConvertAll(m => $"{m.MsgType} {m.SeqNum}"));
        Assert.Equal("E1", ExecIds(h.Sent));
    }

    [Fact]
    public void Over_a_file_store_a_restart_after_the_delivery_sends_them_exactly_once()
    {
        var config = new SessionConfig(SessionHarness.Venue, SessionHarness.Client) { StorePath = Path.Combine(_directory.Path, "VENUE-CLIENT1.session") };
        using (SessionHarness before = SessionWithReportsQueued(config.CreateStore()))
        {
        }

        using (var restarted = new SessionHarness(config, config.CreateStore()))
        {
            Assert.Equal(LogonRouting.Accepted, restarted.Connect(TestMsg.Logon(1, reset: true)));
            Assert.Equal("E2 E3", ExecIds(restarted.Sent));
        }

        using var again = new SessionHarness(config, config.CreateStore());
        Assert.Equal(LogonRouting.Accepted, again.Connect(TestMsg.Logon(1, reset: true)));
        Assert.Equal(["A 1"], again.Sent.ConvertAll(m => $"{m.MsgType} {m.SeqNum}"));
        Assert.Equal(2, again.Session.NextSenderSeqNum);
    }
}
