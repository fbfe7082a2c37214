using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

public sealed class SequencingTests
{
    [Fact]
    public void In_order_application_message_is_delivered_once_and_consumes_its_number()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.Order(2));

        Assert.Equal([2], h.App.DeliveredSeqs);
        Assert.Equal("D", h.App.Delivered[0].MsgType);
        Assert.Equal(3, h.Session.NextTargetSeqNum);
        Assert.Empty(h.Sent);
    }

    [Fact]
    public void Too_low_without_possdup_gets_logout_naming_expected_and_received_then_disconnect()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(2));
        h.Feed(TestMsg.Order(3));

        h.Feed(TestMsg.Order(2));

        SentMessage logout = h.Single("5");
        Assert.Equal("MsgSeqNum too low, expecting 4 but received 2", logout.Get(58));
        Assert.Equal([DisconnectReason.MsgSeqNumTooLow], h.Transport.Disconnects);
        Assert.Equal(SessionState.Disconnected, h.Session.State);
        Assert.Equal([2, 3], h.App.DeliveredSeqs);
    }

    [Fact]
    public void Too_high_sends_one_resend_request_queues_later_messages_and_processes_them_in_order_once_filled()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.Order(4));
        h.Feed(TestMsg.Order(5));
        h.Feed(TestMsg.Order(6));

        SentMessage resend = h.Single("2");
        Assert.Equal(2, resend.GetInt(7));
        Assert.Equal(0, resend.GetInt(16));
        Assert.Empty(h.App.Delivered);
        Assert.Equal(3, h.Session.QueuedCount);

        h.Feed(TestMsg.Order(2).AsPossDup(h.Clock.UtcNowNanos));
        Assert.Equal([2], h.App.DeliveredSeqs);

        h.Feed(TestMsg.Order(3).AsPossDup(h.Clock.UtcNowNanos));
        Assert.Equal([2, 3, 4, 5, 6], h.App.DeliveredSeqs);
        Assert.Equal(7, h.Session.NextTargetSeqNum);
        Assert.Equal(0, h.Session.QueuedCount);

        // The client's resend may repeat what was queued: duplicates are ignored, and no new gap is requested.
        h.Feed(TestMsg.Order(4).AsPossDup(h.Clock.UtcNowNanos));
        Assert.Single(h.Sent, m => m.MsgType == "2");
        Assert.Equal(5, h.App.Delivered.Count);
    }

    [Fact]
    public void A_new_gap_after_the_first_one_filled_gets_its_own_resend_request()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(3));
        h.Feed(TestMsg.Order(2).AsPossDup(h.Clock.UtcNowNanos));

        h.Feed(TestMsg.Order(6));

        List<SentMessage> requests = h.Sent.FindAll(m => m.MsgType == "2");
        Assert.Equal(2, requests.Count);
        Assert.Equal(4, requests[1].GetInt(7));
    }

    [Fact]
    public void Resend_requests_are_chunked_when_configured()
    {
        using var h = new SessionHarness(new SessionConfig(SessionHarness.Venue, SessionHarness.Client) { ResendRequestChunkSize = 2 });
        h.LogOn();

        h.Feed(TestMsg.Order(7));
        SentMessage first = h.Single("2");
        Assert.Equal((2, 3), (first.GetInt(7), first.GetInt(16)));

        h.Feed(TestMsg.Order(2).AsPossDup(h.Clock.UtcNowNanos));
        h.Feed(TestMsg.Order(3).AsPossDup(h.Clock.UtcNowNanos));

        List<SentMessage> requests = h.Sent.FindAll(m => m.MsgType == "2");
        Assert.Equal(2, requests.Count);
        Assert.Equal((4, 5), (requests[1].GetInt(7), requests[1].GetInt(16)));
    }

    [Fact]
    public void Possdup_of_an_already_received_number_is_ignored()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(2));

        h.Feed(TestMsg.Order(2).AsPossDup(h.Clock.UtcNowNanos - 1_000));

        Assert.Empty(h.Sent);
        Assert.Equal([2], h.App.DeliveredSeqs);
        Assert.Equal(3, h.Session.NextTargetSeqNum);
        Assert.Equal(SessionState.Active, h.Session.State);
    }

    [Fact]
    public void Possdup_without_origsendingtime_is_rejected_with_reason_1_and_reftag_122()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.Order(2).AsPossDup(origSendingTime: null));

        SentMessage reject = h.Single("3");
        Assert.Equal(2, reject.GetInt(45));
        Assert.Equal(122, reject.GetInt(371));
        Assert.Equal("D", reject.Get(372));
        Assert.Equal(1, reject.GetInt(373));
        Assert.Empty(h.App.Delivered);
        Assert.Equal(3, h.Session.NextTargetSeqNum);
        Assert.Equal(SessionState.Active, h.Session.State);
    }

    [Fact]
    public void Origsendingtime_later_than_sendingtime_is_rejected_with_reason_10_then_logout()
    {
        using var h = new SessionHarness();
        h.LogOn();
        TestMsg m = TestMsg.Order(2).AsPossDup(h.Clock.UtcNowNanos + 1_000_000);

        h.Feed(m);

        Assert.Equal(["3", "5"], h.Sent.ConvertAll(s => s.MsgType));
        Assert.Equal(10, h.Sent[0].GetInt(373));
        Assert.Equal(122, h.Sent[0].GetInt(371));
        Assert.Equal([DisconnectReason.SendingTimeAccuracyProblem], h.Transport.Disconnects);
        Assert.Empty(h.App.Delivered);
    }

    [Fact]
    public void Garbled_message_is_dropped_without_consuming_a_sequence_number()
    {
        using var h = new SessionHarness();
        h.LogOn();
        TestMsg garbled = TestMsg.Order(2);
        garbled.Garbled = true;

        h.Feed(garbled);

        Assert.Empty(h.Sent);
        Assert.Empty(h.App.Delivered);
        Assert.Equal(2, h.Session.NextTargetSeqNum);

        h.Feed(TestMsg.Order(2));
        Assert.Equal([2], h.App.DeliveredSeqs);
        Assert.Empty(h.Sent);
    }

    [Fact]
    public void Missing_msgseqnum_gets_logout_then_disconnect()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.Order(0));

        Assert.Equal("MsgSeqNum(34) missing", h.Single("5").Get(58));
        Assert.Equal([DisconnectReason.MsgSeqNumMissing], h.Transport.Disconnects);
    }

    [Fact]
    public void A_message_lost_from_the_replay_is_asked_for_again_once_the_replay_reaches_the_end_of_the_range()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(6));
        Assert.Equal((2, 0), (h.Single("2").GetInt(7), h.Single("2").GetInt(16)));
        h.Sent.Clear();

        // The replay of 2..5: 3 is lost on the way (garbled, so dropped); 5 ends the range we asked for.
        long now = h.Clock.UtcNowNanos;
        h.Feed(TestMsg.Order(2).AsPossDup(now));
        h.Feed(TestMsg.Order(4).AsPossDup(now));
        Assert.Empty(h.Sent);
        h.Feed(TestMsg.Order(5).AsPossDup(now));

        Assert.Equal(3, h.Single("2").GetInt(7));
        h.Feed(TestMsg.Order(3).AsPossDup(now));
        Assert.Equal([2, 3, 4, 5, 6], h.App.DeliveredSeqs);
        Assert.Equal(7, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void A_resend_that_makes_no_progress_for_a_heartbeat_interval_is_asked_for_again()
    {
        using var h = new SessionHarness();
        h.LogOn(heartBtInt: 30);
        h.Feed(TestMsg.Order(6));
        h.Sent.Clear();

        // The replay brings 2, then loses 3 and 5 (the end of the range), so nothing says the replay is over.
        long now = h.Clock.UtcNowNanos;
        h.Feed(TestMsg.Order(2).AsPossDup(now));
        h.Feed(TestMsg.Order(4).AsPossDup(now));
        h.Session.Poll(); // the timer sees the progress (it polls every 200 ms or so)
        h.Clock.Advance(TimeSpan.FromSeconds(20));
        h.Feed(TestMsg.Heartbeat(7)); // the client is alive, so only the resend rule can act
        h.Session.Poll();
        Assert.DoesNotContain(h.Sent, m => m.MsgType == "2");

        h.Clock.Advance(TimeSpan.FromSeconds(11)); // 31 s without progress since 2 was seen
        h.Feed(TestMsg.Heartbeat(8));
        h.Session.Poll();

        SentMessage again = Assert.Single(h.Sent, m => m.MsgType == "2");
        Assert.Equal((3, 0), (again.GetInt(7), again.GetInt(16)));
        h.Sent.Clear();

        // One request per interval, not one per poll.
        h.Session.Poll();
        Assert.DoesNotContain(h.Sent, m => m.MsgType == "2");
        h.Feed(TestMsg.Order(3).AsPossDup(now));
        h.Feed(TestMsg.Order(5).AsPossDup(now));
        Assert.Equal([2, 3, 4, 5, 6], h.App.DeliveredSeqs);
        Assert.Equal(9, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void A_replay_that_never_fills_the_gap_is_not_answered_with_a_request_per_replay()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(4));
        h.Sent.Clear();

        // 2 never comes: the replay brings only 3, the end of the range. Without progress, no new request (the timer's job).
        h.Feed(TestMsg.Order(3).AsPossDup(h.Clock.UtcNowNanos));

        Assert.Empty(h.Sent);
        Assert.Equal(2, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void A_replay_that_ends_with_a_gap_fill_past_the_range_yet_left_a_hole_is_asked_for_again()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(6));
        h.Sent.Clear();

        // The replay of 2..5: order 2, order 3 lost, then a gap fill 4 -> 6 for admin messages.
        long now = h.Clock.UtcNowNanos;
        h.Feed(TestMsg.Order(2).AsPossDup(now));
        h.Feed(TestMsg.SequenceReset(4, 6, gapFill: true).AsPossDup(now));

        Assert.Equal(3, h.Single("2").GetInt(7));
        h.Feed(TestMsg.Order(3).AsPossDup(now));
        Assert.Equal([2, 3, 6], h.App.DeliveredSeqs);
        Assert.Equal(7, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void Without_heartbeats_a_resend_that_makes_no_progress_is_asked_for_again_after_30_seconds()
    {
        using var h = new SessionHarness();
        h.LogOn(heartBtInt: 0);
        h.Feed(TestMsg.Order(4));
        h.Sent.Clear();
        h.Session.Poll();

        h.Clock.Advance(TimeSpan.FromSeconds(29));
        h.Session.Poll();
        Assert.Empty(h.Sent);

        h.Clock.Advance(TimeSpan.FromSeconds(1));
        h.Session.Poll();
        Assert.Equal(2, h.Single("2").GetInt(7));
    }
}
