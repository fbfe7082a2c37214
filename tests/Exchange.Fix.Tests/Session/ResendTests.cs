using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

public sealed class ResendTests
{
    private static readonly byte[] ExecBody = "37=O1\u000117=E1\u0001150=0\u0001"u8.ToArray();

    /// <summary>Venue sends: 1 Logon(admin), 2 ER, 3 ER, 4 Heartbeat(admin), 5 Heartbeat(admin), 6 ER.</summary>
    private static (SessionHarness H, long[] ErTimes) SessionWithHistory()
    {
        var h = new SessionHarness();
        h.LogOn(heartBtInt: 30);
        var times = new long[7];
        times[2] = h.Clock.UtcNowNanos;
        h.Session.SendApplication("8"u8, ExecBody);
        h.Clock.Advance(TimeSpan.FromSeconds(1));
        times[3] = h.Clock.UtcNowNanos;
        h.Session.SendApplication("8"u8, ExecBody);
        for (int i = 0; i < 2; i++)
        {
            h.Clock.Advance(TimeSpan.FromSeconds(30));
            h.Feed(TestMsg.Heartbeat(2 + i)); // keep the client alive so Poll only heartbeats
            h.Session.Poll();
        }

        times[6] = h.Clock.UtcNowNanos;
        h.Session.SendApplication("8"u8, ExecBody);
        Assert.Equal(["8", "8", "0", "0", "8"], h.Sent.ConvertAll(m => m.MsgType));
        h.Clock.Advance(TimeSpan.FromSeconds(5));
        h.Sent.Clear();
        return (h, times);
    }

    [Fact]
    public void Resend_of_everything_resends_application_messages_as_possdup_and_gapfills_admin_runs()
    {
        (SessionHarness h, long[] times) = SessionWithHistory();
        using (h)
        {
            h.Feed(TestMsg.ResendRequest(4, 1, 0));

            Assert.Equal(["4", "8", "8", "4", "8"], h.Sent.ConvertAll(m => m.MsgType));
            Assert.Equal([1, 2, 3, 4, 6], h.Sent.ConvertAll(m => m.SeqNum));

            SentMessage leadingFill = h.Sent[0];
            Assert.Equal("Y", leadingFill.Get(123));
            Assert.Equal(2, leadingFill.GetInt(36));
            Assert.Equal("Y", leadingFill.Get(43));

            SentMessage middleFill = h.Sent[3];
            Assert.Equal(6, middleFill.GetInt(36));

            foreach (int i in new[] { 1, 2, 4 })
            {
                SentMessage er = h.Sent[i];
                Assert.Equal("Y", er.Get(43));
                Assert.Equal(times[er.SeqNum], er.GetLong(122));
                Assert.Equal(h.Clock.UtcNowNanos, er.GetLong(52));
                Assert.Equal("O1", er.Get(37));
            }

            // Resends reuse old numbers: the next new message still gets 7.
            Assert.Equal(7, h.Session.NextSenderSeqNum);
        }
    }

    [Fact]
    public void Resend_of_a_closed_range_stops_at_endseqno_and_gapfill_points_past_it()
    {
        (SessionHarness h, _) = SessionWithHistory();
        using (h)
        {
            h.Feed(TestMsg.ResendRequest(4, 3, 5));

            Assert.Equal(["8", "4"], h.Sent.ConvertAll(m => m.MsgType));
            Assert.Equal(3, h.Sent[0].SeqNum);
            Assert.Equal(4, h.Sent[1].SeqNum);
            Assert.Equal(6, h.Sent[1].GetInt(36));
        }
    }

    [Fact]
    public void Messages_sent_while_disconnected_are_stored_and_recovered_after_relogon()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Session.OnTransportClosed();

        int seq = h.Session.SendApplication("8"u8, ExecBody);
        Assert.Equal(2, seq);

        Assert.Equal(LogonRouting.Accepted, h.Connect(TestMsg.Logon(2)));
        Assert.Equal(3, Assert.Single(h.Sent).SeqNum); // Logon reply; the client now sees a gap at 2
        h.Sent.Clear();

        h.Feed(TestMsg.ResendRequest(3, 2, 0));

        SentMessage er = Assert.Single(h.Sent, m => m.MsgType == "8");
        Assert.Equal(2, er.SeqNum);
        Assert.Equal("Y", er.Get(43));
        Assert.Equal(["8", "4"], h.Sent.ConvertAll(m => m.MsgType));
        Assert.Equal(4, h.Sent[1].GetInt(36));
    }

    [Fact]
    public void Resend_request_with_a_too_high_seqnum_is_served_at_once_and_its_gap_requested()
    {
        (SessionHarness h, _) = SessionWithHistory();
        using (h)
        {
            h.Feed(TestMsg.ResendRequest(9, 6, 0));

            Assert.Equal(["8", "2"], h.Sent.ConvertAll(m => m.MsgType));
            Assert.Equal(4, h.Sent[1].GetInt(7));

            h.Feed(TestMsg.SequenceReset(4, 9, gapFill: true).AsPossDup(h.Clock.UtcNowNanos));
            Assert.Equal(10, h.Session.NextTargetSeqNum);
            Assert.Equal(2, h.Sent.Count); // served once, not again when its number came up
        }
    }

    [Fact]
    public void Resend_request_whose_end_is_below_its_begin_is_rejected_not_ignored()
    {
        (SessionHarness h, _) = SessionWithHistory();
        using (h)
        {
            h.Feed(TestMsg.ResendRequest(4, 5, 3));

            SentMessage reject = Assert.Single(h.Sent);
            Assert.Equal("3", reject.MsgType);
            Assert.Equal(5, reject.GetInt(373));
            Assert.Equal(16, reject.GetInt(371));
            Assert.Equal(4, reject.GetInt(45));
            Assert.Equal(5, h.Session.NextTargetSeqNum);
        }
    }

    /// <summary>The venue has sent 1–6: a request from 7 asks for numbers that do not exist yet.</summary>
    [Theory]
    [InlineData(7, 0)]
    [InlineData(7, 9)]
    [InlineData(50, 0)]
    public void Resend_request_beginning_beyond_the_last_number_sent_is_rejected_not_ignored(int begin, int end)
    {
        (SessionHarness h, _) = SessionWithHistory();
        using (h)
        {
            h.Feed(TestMsg.ResendRequest(4, begin, end));

            SentMessage reject = Assert.Single(h.Sent);
            Assert.Equal("3", reject.MsgType);
            Assert.Equal(5, reject.GetInt(373));
            Assert.Equal(7, reject.GetInt(371));
            Assert.Equal(4, reject.GetInt(45));
            Assert.Equal(7, reject.SeqNum);
            Assert.Equal(5, h.Session.NextTargetSeqNum);
        }
    }

    [Fact]
    public void Resend_request_beyond_the_last_number_sent_ahead_of_a_gap_waits_and_is_rejected_in_its_turn()
    {
        (SessionHarness h, _) = SessionWithHistory();
        using (h)
        {
            h.Feed(TestMsg.ResendRequest(9, 8, 0));
            Assert.Equal(["2"], h.Sent.ConvertAll(m => m.MsgType)); // the gap's request is number 7; 8 is still unsent

            h.Sent.Clear();
            h.Feed(TestMsg.SequenceReset(4, 9, gapFill: true).AsPossDup(h.Clock.UtcNowNanos));

            SentMessage reject = Assert.Single(h.Sent);
            Assert.Equal("3", reject.MsgType);
            Assert.Equal(9, reject.GetInt(45));
            Assert.Equal(7, reject.GetInt(371));
            Assert.Equal(10, h.Session.NextTargetSeqNum);
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Resend_request_with_a_too_high_seqnum_and_a_bad_field_is_not_served_and_is_rejected_in_its_turn(bool reversed)
    {
        (SessionHarness h, _) = SessionWithHistory();
        using (h)
        {
            // A field the validator refused (for example EndSeqNo(16) "abc", which would otherwise read as 0, "everything"),
            // or a reversed range: nothing is resent, only the gap below it is requested.
            TestMsg request = reversed ? TestMsg.ResendRequest(9, 6, 2) : TestMsg.ResendRequest(9, 1, 0);
            if (!reversed)
            {
                request.ParseReject = Exchange.Fix.Codec.SessionRejectReason.IncorrectDataFormat;
                request.ParseRejectTag = 16;
            }

            h.Feed(request);
            Assert.Equal(["2"], h.Sent.ConvertAll(m => m.MsgType));
            h.Sent.Clear();

            h.Feed(TestMsg.SequenceReset(4, 9, gapFill: true).AsPossDup(h.Clock.UtcNowNanos));

            SentMessage reject = Assert.Single(h.Sent);
            Assert.Equal("3", reject.MsgType);
            Assert.Equal(9, reject.GetInt(45));
            Assert.Equal(16, reject.GetInt(371));
            Assert.Equal(reversed ? 5 : 6, reject.GetInt(373));
            Assert.Equal(10, h.Session.NextTargetSeqNum);
        }
    }
}
