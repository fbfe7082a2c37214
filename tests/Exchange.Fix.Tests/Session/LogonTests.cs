using Xunit;
using Exchange.Fix.Session;

namespace Exchange.Fix.Tests.Session;

public sealed class LogonTests
{
    [Fact]
    public void Valid_logon_is_answered_with_logon_echoing_heartbtint_and_session_becomes_active()
    {
        using var h = new SessionHarness();

        LogonRouting result = h.Connect(TestMsg.Logon(1, heartBtInt: 17));

        Assert.Equal(LogonRouting.Accepted, result);
        Assert.Equal(SessionState.Active, h.Session.State);
        SentMessage reply = Assert.Single(h.Sent);
        Assert.Equal("A", reply.MsgType);
        Assert.Equal(17, reply.GetInt(108));
        Assert.Equal(0, reply.GetInt(98));
        Assert.False(reply.Has(141));
        Assert.Equal(1, reply.SeqNum);
        Assert.Equal(SessionHarness.Venue, reply.Get(49));
        Assert.Equal(SessionHarness.Client, reply.Get(56));
        Assert.Equal(2, h.Session.NextTargetSeqNum);
        Assert.Equal(2, h.Session.NextSenderSeqNum);
        Assert.Equal(1, h.App.Logons);
    }

    [Fact]
    public void First_message_not_a_logon_disconnects_without_reply()
    {
        using var h = new SessionHarness();

        LogonRouting result = h.Connect(TestMsg.Heartbeat(1));

        Assert.Equal(LogonRouting.NotLogon, result);
        Assert.Empty(h.Sent);
        Assert.Equal([DisconnectReason.FirstMessageNotLogon], h.Transport.Disconnects);
        Assert.Equal(SessionState.Disconnected, h.Session.State);
    }

    [Fact]
    public void Garbled_first_message_disconnects_without_reply()
    {
        using var h = new SessionHarness();
        TestMsg garbled = TestMsg.Logon(1);
        garbled.Garbled = true;

        Assert.Equal(LogonRouting.NotLogon, h.Connect(garbled));
        Assert.Empty(h.Sent);
        Assert.True(h.Transport.IsDisconnected);
    }

    /// <summary>
    /// A CompID byte outside ASCII decodes to '?': the registry must not take such a Logon for a session whose CompID
    /// has a '?' there. The session would refuse it, but only after being bound by a connection that does not hold
    /// the gateway's session lock (the gateway finds the session by the exact bytes).
    /// </summary>
    [Fact]
    public void Logon_with_a_compid_byte_outside_ascii_never_reaches_a_session()
    {
        using var h = new SessionHarness(new SessionConfig(SessionHarness.Venue, "CLIENT?1"));
        TestMsg logon = TestMsg.Logon(1);
        logon.Sender = "CLIENT\u00FF1";

        Assert.Equal(LogonRouting.UnknownSession, h.Connect(logon));
        Assert.Empty(h.Sent);
        Assert.Equal([DisconnectReason.UnknownSession], h.Transport.Disconnects);
        Assert.Equal(SessionState.Disconnected, h.Session.State);
        Assert.Equal(1, h.Store.NextTargetSeqNum);
    }

    [Fact]
    public void Logon_for_unconfigured_compids_disconnects_without_reply()
    {
        using var h = new SessionHarness();
        TestMsg logon = TestMsg.Logon(1);
        logon.Sender = "STRANGER";

        Assert.Equal(LogonRouting.UnknownSession, h.Connect(logon));
        Assert.Empty(h.Sent);
        Assert.Equal([DisconnectReason.UnknownSession], h.Transport.Disconnects);
    }

    [Theory]
    [InlineData(null)]
    [InlineData(-1)]
    [InlineData(FixSession.MaxHeartBtInt + 1)]
    [InlineData(1_000_000_000)]
    public void Logon_with_missing_negative_or_too_long_heartbtint_gets_logout_then_disconnect(int? heartBtInt)
    {
        using var h = new SessionHarness();

        Assert.Equal(LogonRouting.Refused, h.Connect(TestMsg.Logon(1, heartBtInt)));

        SentMessage logout = Assert.Single(h.Sent);
        Assert.Equal("5", logout.MsgType);
        Assert.Contains("HeartBtInt", logout.Get(58), StringComparison.Ordinal);
        Assert.Equal([DisconnectReason.InvalidLogon], h.Transport.Disconnects);
        Assert.Equal(SessionState.Disconnected, h.Session.State);
    }

    [Fact]
    public void Logon_with_sendingtime_outside_tolerance_gets_logout_then_disconnect()
    {
        using var h = new SessionHarness();
        TestMsg logon = TestMsg.Logon(1);
        logon.SendingTime = h.Clock.UtcNowNanos - TimeSpan.FromSeconds(121).Ticks * 100;

        Assert.Equal(LogonRouting.Refused, h.Connect(logon));

        Assert.Equal("5", Assert.Single(h.Sent).MsgType);
        Assert.Equal([DisconnectReason.InvalidLogon], h.Transport.Disconnects);
    }

    [Fact]
    public void Logon_within_tolerance_is_accepted()
    {
        using var h = new SessionHarness();
        TestMsg logon = TestMsg.Logon(1);
        logon.SendingTime = h.Clock.UtcNowNanos + TimeSpan.FromSeconds(119).Ticks * 100;

        Assert.Equal(LogonRouting.Accepted, h.Connect(logon));
    }

    [Fact]
    public void ResetSeqNumFlag_resets_both_sequence_numbers_and_is_echoed()
    {
        var store = new MemorySessionStore();
        store.StoreOutbound(41, "8"u8, 1, "11=X\u0001"u8);
        store.SetNextTargetSeqNum(77);
        using var h = new SessionHarness(store: store);

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(1, reset: true)));

        SentMessage reply = Assert.Single(h.Sent);
        Assert.Equal("Y", reply.Get(141));
        Assert.Equal(1, reply.SeqNum);
        Assert.Equal(2, h.Session.NextSenderSeqNum);
        Assert.Equal(2, h.Session.NextTargetSeqNum);
        Assert.False(store.TryGetOutbound(41, out _));
    }

    [Fact]
    public void Logon_with_seqnum_too_low_gets_logout_naming_expected_and_received()
    {
        var store = new MemorySessionStore();
        store.SetNextTargetSeqNum(10);
        using var h = new SessionHarness(store: store);

        Assert.Equal(LogonRouting.Refused, h.Connect(TestMsg.Logon(4)));

        Assert.Equal("MsgSeqNum too low, expecting 10 but received 4", Assert.Single(h.Sent).Get(58));
        Assert.Equal([DisconnectReason.MsgSeqNumTooLow], h.Transport.Disconnects);
    }

    [Fact]
    public void Logon_with_seqnum_too_high_is_accepted_then_gap_is_requested()
    {
        using var h = new SessionHarness();

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(5)));

        Assert.Equal(["A", "2"], h.Sent.ConvertAll(m => m.MsgType));
        Assert.Equal(1, h.Sent[1].GetInt(7));
        Assert.Equal(0, h.Sent[1].GetInt(16));
        Assert.Equal(1, h.Session.NextTargetSeqNum);

        // The client fills 1..4; the queued Logon then occupies 5 and the session expects 6.
        h.Feed(TestMsg.SequenceReset(1, 5, gapFill: true).AsPossDup(h.Clock.UtcNowNanos));
        Assert.Equal(6, h.Session.NextTargetSeqNum);
        Assert.Equal(0, h.Session.QueuedCount);
    }

    [Fact]
    public void Second_logon_while_connected_is_refused_and_first_connection_stays_up()
    {
        using var h = new SessionHarness();
        h.LogOn();
        RecordingTransport first = h.Transport;
        int nextSender = h.Session.NextSenderSeqNum;

        var second = new RecordingTransport();
        LogonRouting result = TestMsg.Logon(2).Route(h.Registry, h.Clock, second, new RecordingApplication(), out FixSession? bound);

        Assert.Equal(LogonRouting.AlreadyConnected, result);
        Assert.Null(bound);
        Assert.Empty(second.Sent);
        Assert.Equal([DisconnectReason.SessionAlreadyConnected], second.Disconnects);
        Assert.False(first.IsDisconnected);
        Assert.Equal(SessionState.Active, h.Session.State);
        Assert.Equal(nextSender, h.Session.NextSenderSeqNum);

        h.Feed(TestMsg.Order(2));
        Assert.Equal([2], h.App.DeliveredSeqs);
    }

    [Fact]
    public void Logon_timeout_disconnects_a_bound_connection_that_never_logs_on()
    {
        using var h = new SessionHarness();
        var transport = new RecordingTransport();
        h.Session.Bind(transport, new RecordingApplication());

        h.Clock.Advance(TimeSpan.FromSeconds(9));
        h.Session.Poll();
        Assert.False(transport.IsDisconnected);

        h.Clock.Advance(TimeSpan.FromSeconds(1));
        h.Session.Poll();
        Assert.Equal([DisconnectReason.LogonTimeout], transport.Disconnects);
    }

    [Fact]
    public void Reconnect_after_disconnect_resumes_sequence_numbers()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(2));
        h.Session.OnTransportClosed();
        Assert.Equal(SessionState.Disconnected, h.Session.State);

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(3)));

        Assert.Equal(2, Assert.Single(h.Sent).SeqNum);
        Assert.Equal(4, h.Session.NextTargetSeqNum);
    }
}
