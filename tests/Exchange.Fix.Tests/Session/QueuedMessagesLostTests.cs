using System.Text;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// <see cref="FixSession.QueuedMessagesLost"/>: a report queued for an absent client that its in-memory store overwrote
/// before the client came back is counted when it falls due (gap-filled on the resend, or left out at a reset Logon),
/// so the gateway can say so; nothing is counted when the store still has every queued report.
/// </summary>
public sealed class QueuedMessagesLostTests : IDisposable
{
    /// <summary>A ring this small holds ~30 of the reports below: 50 queued ones make it go round.</summary>
    private const int SmallRingBytes = 4096;
    private const int QueuedReports = 50;

    private readonly TempStoreDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private static byte[] Report(int n) => Encoding.ASCII.GetBytes($"37=O1\u000117=E{n}\u000160=20260302-09:30:00.000\u000158={new string('x', 60)}\u0001");

    /// <summary>Logged on, one live report (2); the client leaves; <see cref="QueuedReports"/> reports queued (3 ...).</summary>
    private static SessionHarness SessionWithReportsQueued(ISessionStore store)
    {
        var h = new SessionHarness(store: store);
        h.LogOn();
        h.Session.SendApplication("8"u8, Report(0));
        h.Session.OnTransportClosed();
        for (int n = 1; n <= QueuedReports; n++)
        {
            h.Session.SendApplication("8"u8, Report(n));
        }

        return h;
    }

    /// <summary>The queued numbers the store can no longer return: counted from the store, before anything is due.</summary>
    private static int Overwritten(ISessionStore store) =>
        Enumerable.Range(3, QueuedReports).Count(seq => !store.TryGetOutbound(seq, out _));

    [Fact]
    public void Overwritten_reports_are_counted_when_a_resend_gap_fills_them()
    {
        var store = new MemorySessionStore(SmallRingBytes);
        using SessionHarness h = SessionWithReportsQueued(store);
        int overwritten = Overwritten(store);
        Assert.InRange(overwritten, 1, QueuedReports - 1);

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(2)));
        h.Feed(TestMsg.ResendRequest(3, 1, 0));

        Assert.Equal(overwritten, h.Session.QueuedMessagesLost);
        Assert.Equal("4", h.Sent[1].MsgType); // the lost ones (and the logon, 1) went as one gap fill
        Assert.Equal(QueuedReports - overwritten, h.Sent.Count(m => m.MsgType == "8"));

        // A second resend of the same range finds them delivered (gap-filled once): nothing more is lost.
        h.Feed(TestMsg.ResendRequest(4, 1, 0));
        Assert.Equal(overwritten, h.Session.QueuedMessagesLost);
    }

    [Fact]
    public void Overwritten_reports_are_counted_when_a_reset_logon_leaves_them_out()
    {
        var store = new MemorySessionStore(SmallRingBytes);
        using SessionHarness h = SessionWithReportsQueued(store);
        int overwritten = Overwritten(store);

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(1, reset: true)));

        Assert.Equal(overwritten, h.Session.QueuedMessagesLost);
        Assert.Equal(QueuedReports - overwritten, h.Sent.Count(m => m.MsgType == "8"));
    }

    [Fact]
    public void Nothing_is_counted_when_the_store_keeps_every_queued_report()
    {
        using SessionHarness plain = SessionWithReportsQueued(new FileSessionStore(_directory.StorePath, FsyncPolicy.Never));
        Assert.Equal(LogonRouting.Accepted, plain.Connect(TestMsg.Logon(2)));
        plain.Feed(TestMsg.ResendRequest(3, 1, 0));
        Assert.Equal(QueuedReports + 1, plain.Sent.Count(m => m.MsgType == "8"));

        using SessionHarness reset = SessionWithReportsQueued(new MemorySessionStore());
        Assert.Equal(LogonRouting.Accepted, reset.Connect(TestMsg.Logon(1, reset: true)));
        Assert.Equal(QueuedReports, reset.Sent.Count(m => m.MsgType == "8"));

        Assert.Equal(0, plain.Session.QueuedMessagesLost);
        Assert.Equal(0, reset.Session.QueuedMessagesLost);
    }
}
