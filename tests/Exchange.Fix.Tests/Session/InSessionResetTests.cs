using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>A Logon with ResetSeqNumFlag=Y on a session that is already logged on (FIX 4.4: both sides restart at 1).</summary>
public sealed class InSessionResetTests
{
    [Fact]
    public void Reset_logon_on_an_active_session_resets_both_numbers_and_keeps_the_connection()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(2));
        h.Feed(TestMsg.Order(3));
        h.Sent.Clear();

        h.Feed(TestMsg.Logon(1, heartBtInt: 45, reset: true));

        SentMessage reply = Assert.Single(h.Sent);
        Assert.Equal("A", reply.MsgType);
        Assert.Equal("Y", reply.Get(141));
        Assert.Equal(45, reply.GetInt(108));
        Assert.Equal(1, reply.SeqNum);
        Assert.Equal(2, h.Session.NextTargetSeqNum);
        Assert.Equal(2, h.Session.NextSenderSeqNum);
        Assert.Equal(45, h.Session.HeartBtInt);
        Assert.Equal(SessionState.Active, h.Session.State);
        Assert.Empty(h.Transport.Disconnects);

        // Numbering continues from the reset: the next order is 2 again and is delivered, not "too low".
        h.Feed(TestMsg.Order(2));
        Assert.Equal([2, 3, 2], h.App.DeliveredSeqs);
    }

    [Fact]
    public void Reset_logon_forgets_stored_outbound_messages_and_messages_queued_behind_a_gap()
    {
        var store = new MemorySessionStore();
        store.StoreOutbound(1, "8"u8, 1, "11=X\u0001"u8);
        using var h = new SessionHarness(store: store);
        h.LogOn();
        h.Feed(TestMsg.Order(5));
        Assert.Equal(1, h.Session.QueuedCount);

        h.Feed(TestMsg.Logon(1, reset: true));

        Assert.Equal(0, h.Session.QueuedCount);
        Assert.False(store.TryGetOutbound(1, out _));
        Assert.Empty(h.App.DeliveredSeqs);

        // The order queued before the reset is not delivered when the new numbering reaches 5.
        for (int seq = 2; seq <= 5; seq++)
        {
            h.Feed(TestMsg.Order(seq));
        }

        Assert.Equal([2, 3, 4, 5], h.App.DeliveredSeqs);
    }

    [Fact]
    public void Reset_logon_numbered_above_one_is_answered_then_the_gap_below_it_is_requested()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Sent.Clear();

        h.Feed(TestMsg.Logon(3, reset: true));

        Assert.Equal(["A", "2"], h.Sent.ConvertAll(m => m.MsgType));
        Assert.Equal(1, h.Sent[1].GetInt(7));
        Assert.Equal(1, h.Session.NextTargetSeqNum);
        Assert.Equal(SessionState.Active, h.Session.State);
    }

    [Theory]
    [InlineData(null)]
    [InlineData(-1)]
    [InlineData(FixSession.MaxHeartBtInt + 1)]
    public void Reset_logon_with_a_bad_heartbtint_gets_logout_then_disconnect(int? heartBtInt)
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Sent.Clear();

        h.Feed(TestMsg.Logon(1, heartBtInt, reset: true));

        Assert.Contains("HeartBtInt", Assert.Single(h.Sent, m => m.MsgType == "5").Get(58), StringComparison.Ordinal);
        Assert.Equal([DisconnectReason.InvalidLogon], h.Transport.Disconnects);
    }

    [Fact]
    public void Logon_without_reset_on_an_active_session_is_still_refused()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.Logon(2));

        Assert.Equal([DisconnectReason.UnexpectedLogon], h.Transport.Disconnects);
    }
}
