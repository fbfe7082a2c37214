using System.Buffers;
using System.Globalization;
using Exchange.Core.Commands;
using Exchange.Fix.Gateway;
using Exchange.Fix.Session;
using Exchange.Fix.Tests.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// A session whose store fails must not take others down with it: its failing timer poll must not stop the timers of
/// the sessions polled after it (their Heartbeats, TestRequests and timeouts), and its connection still ends cleanly,
/// with its cancel on disconnect. Each failure is logged (a repeating one once, not at every tick).
/// </summary>
public sealed class GatewaySessionFailureTests : IDisposable
{
    private readonly TempStoreDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void A_connection_whose_session_store_fails_still_ends_and_cancels_on_disconnect()
    {
        if (OperatingSystem.IsWindows())
        {
            return; // The failed rename below relies on POSIX rename semantics.
        }

        string path = _directory.StorePath;
        using var h = new GatewayHarness(
            storeFactory: c => c.TargetCompID == "CLIENT2" ? new FileSessionStore(path, FsyncPolicy.Never) : new MemorySessionStore(),
            sessions: [new SessionConfig("VENUE", "CLIENT2") { CancelOnDisconnect = true }, new SessionConfig("VENUE", "CLIENT1")]);
        var client2 = (ConnectionHandler)h.Gateway.Attach(new FakeConnection());
        client2.Process(new ReadOnlySequence<byte>(Client2Logon(h, reset: false)), out _, out _);
        Assert.True(h.Gateway.IsLoggedOn(0));

        // An in-session reset whose rename over the store file fails: the read throws, and the read loop detaches.
        File.Delete(path);
        Directory.CreateDirectory(path);
        Assert.ThrowsAny<IOException>(() => client2.Process(new ReadOnlySequence<byte>(Client2Logon(h, reset: true)), out _, out _));
        client2.Detach("connection failed");

        Assert.False(h.Gateway.IsLoggedOn(0));
        Command cancel = Assert.Single(h.Publisher.Commands);
        Assert.Equal((CommandType.CancelOnDisconnect, 0), (cancel.Type, cancel.OwnerId));
        string failure = Assert.Single(h.Log.Lines, line => line.Contains("failed while ending", StringComparison.Ordinal));
        Assert.Contains("VENUE->CLIENT2", failure, StringComparison.Ordinal);
    }

    [Fact]
    public void A_session_whose_poll_throws_does_not_stop_the_timers_of_the_sessions_after_it()
    {
        BreakableStore broken = new();
        using var h = new GatewayHarness(
            storeFactory: c => c.TargetCompID == "CLIENT2" ? broken : new MemorySessionStore(),
            sessions: [new SessionConfig("VENUE", "CLIENT2"), new SessionConfig("VENUE", "CLIENT1")]);
        h.Send("A", "98=0|108=30|");
        Assert.True(h.Gateway.IsLoggedOn(1));
        var client2 = (ConnectionHandler)h.Gateway.Attach(new FakeConnection());
        client2.Process(new ReadOnlySequence<byte>(Client2Logon(h, reset: false)), out _, out _);
        Assert.True(h.Gateway.IsLoggedOn(0));
        h.TakeSent();

        // Both sessions owe a Heartbeat after 30 s of silence; CLIENT2's store now throws on every write, so its poll
        // throws at every tick, and CLIENT2 comes first.
        broken.Broken = true;
        h.Clock.Advance(TimeSpan.FromSeconds(31));
        for (int tick = 0; tick < 10; tick++)
        {
            h.Gateway.Poll();
        }

        Assert.Equal("0", Assert.Single(h.TakeSent())[35]);
        Assert.True(h.Gateway.IsLoggedOn(1));
        string failure = Assert.Single(h.Log.Lines, line => line.Contains("timer poll failed", StringComparison.Ordinal));
        Assert.Contains("VENUE->CLIENT2", failure, StringComparison.Ordinal);
        Assert.Contains("IOException", failure, StringComparison.Ordinal);
    }

    [Fact]
    public void A_failure_after_the_session_recovered_is_logged_again()
    {
        BreakableStore broken = new();
        using var h = new GatewayHarness(storeFactory: _ => broken);
        h.LogOn();

        broken.Broken = true;
        h.Clock.Advance(TimeSpan.FromSeconds(31));
        h.Gateway.Poll();
        h.Gateway.Poll();

        // The store recovers: the Heartbeat goes out. Later it fails again: a new run of failures, logged at once.
        broken.Broken = false;
        h.Gateway.Poll();
        Assert.Equal("0", Assert.Single(h.TakeSent())[35]);
        h.Send("0", "");
        h.Clock.Advance(TimeSpan.FromSeconds(31));
        broken.Broken = true;
        h.Gateway.Poll();

        Assert.Empty(h.TakeSent());
        Assert.Equal(2, h.Log.Lines.Count(line => line.Contains("timer poll failed", StringComparison.Ordinal)));
    }

    [Fact]
    public void A_slow_consumer_is_cut_off_even_when_its_logout_fails()
    {
        BreakableStore broken = new();
        using var h = new GatewayHarness(new GatewayOptions { MaxSendBacklogBytes = 1 }, _ => broken);
        h.LogOn();

        h.Connection.Backlog = 10;
        broken.Broken = true;
        h.Gateway.Poll();

        Assert.Equal(1, h.Connection.CloseCount);
        Assert.Single(h.Log.Lines, line => line.Contains("timer poll failed", StringComparison.Ordinal));
    }

    private static byte[] Client2Logon(GatewayHarness h, bool reset)
    {
        string time = DateTime.UnixEpoch.AddTicks(h.Clock.UtcNowNanos / 100).ToString("yyyyMMdd-HH:mm:ss.fff", CultureInfo.InvariantCulture);
        return FixTestMessages.Wrap($"35=A|49=CLIENT2|56=VENUE|34=1|52={time}|98=0|108=30|{(reset ? "141=Y|" : "")}");
    }

    /// <summary>An in-memory store whose outbound writes (messages, numbers) throw once <see cref="Broken"/> is set.</summary>
    private sealed class BreakableStore : ISessionStore
    {
        private readonly MemorySessionStore _inner = new();

        public bool Broken { get; set; }

        public int NextSenderSeqNum => _inner.NextSenderSeqNum;

        public int NextTargetSeqNum => _inner.NextTargetSeqNum;

        public long LastEventId => _inner.LastEventId;

        public void SetNextSenderSeqNum(int value)
        {
            ThrowIfBroken();
            _inner.SetNextSenderSeqNum(value);
        }

        public void SetNextTargetSeqNum(int value) => _inner.SetNextTargetSeqNum(value);

        public void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body, long eventId = 0, bool queued = false)
        {
            ThrowIfBroken();
            _inner.StoreOutbound(msgSeqNum, msgType, sendingTimeNanos, body, eventId, queued);
        }

        public void SetLastEventId(long eventId) => _inner.SetLastEventId(eventId);

        public bool TryGetOutbound(int msgSeqNum, out StoredMessage message) => _inner.TryGetOutbound(msgSeqNum, out message);

        public bool IsQueued(int msgSeqNum) => _inner.IsQueued(msgSeqNum);

        public void MarkDelivered(int firstSeqNum, int lastSeqNum) => _inner.MarkDelivered(firstSeqNum, lastSeqNum);

        public int Reset(int firstQueuedSeqNum, long sendingTimeNanos) => _inner.Reset(firstQueuedSeqNum, sendingTimeNanos);

        public void Flush() => _inner.Flush();

        public void Dispose() => _inner.Dispose();

        private void ThrowIfBroken()
        {
            if (Broken)
            {
                throw new IOException("disk gone");
            }
        }
    }
}
