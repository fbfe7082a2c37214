using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

public sealed class SequenceResetTests
{
    [Fact]
    public void Gapfill_in_sequence_sets_next_expected_to_newseqno()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.SequenceReset(2, 10, gapFill: true));

        Assert.Equal(10, h.Session.NextTargetSeqNum);
        Assert.Empty(h.Sent);
        h.Feed(TestMsg.Order(10));
        Assert.Equal([10], h.App.DeliveredSeqs);
    }

    [Fact]
    public void Gapfill_with_seqnum_too_high_is_queued_behind_a_resend_request()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.SequenceReset(4, 10, gapFill: true));

        Assert.Equal(2, h.Single("2").GetInt(7));
        Assert.Equal(2, h.Session.NextTargetSeqNum);

        h.Feed(TestMsg.Order(2).AsPossDup(h.Clock.UtcNowNanos));
        h.Feed(TestMsg.Order(3).AsPossDup(h.Clock.UtcNowNanos));
        Assert.Equal(10, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void Gapfill_with_seqnum_too_low_and_no_possdup_gets_logout()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(2));

        h.Feed(TestMsg.SequenceReset(2, 10, gapFill: true));

        Assert.Equal("MsgSeqNum too low, expecting 3 but received 2", h.Single("5").Get(58));
        Assert.Equal([DisconnectReason.MsgSeqNumTooLow], h.Transport.Disconnects);
    }

    [Fact]
    public void Gapfill_whose_newseqno_does_not_move_forward_is_rejected_with_reason_5()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(TestMsg.SequenceReset(2, 2, gapFill: true));

        SentMessage reject = h.Single("3");
        Assert.Equal(5, reject.GetInt(373));
        Assert.Equal(36, reject.GetInt(371));
        Assert.Equal(3, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void Reset_mode_sets_next_expected_regardless_of_its_own_seqnum()
    {
        using var h = new SessionHarness();
        h.LogOn();

        // MsgSeqNum 99 would be "too high" for any other message; Reset mode ignores it.
        h.Feed(TestMsg.SequenceReset(99, 20, gapFill: false));

        Assert.Equal(20, h.Session.NextTargetSeqNum);
        Assert.Empty(h.Sent);
        Assert.Equal(SessionState.Active, h.Session.State);
    }

    [Fact]
    public void Reset_mode_discards_queued_messages_below_the_new_number_and_releases_the_rest()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(5));
        h.Feed(TestMsg.Order(8));

        h.Feed(TestMsg.SequenceReset(1, 8, gapFill: false));

        Assert.Equal([8], h.App.DeliveredSeqs);
        Assert.Equal(9, h.Session.NextTargetSeqNum);
        Assert.Equal(0, h.Session.QueuedCount);
    }

    [Fact]
    public void Reset_mode_lower_than_expected_is_rejected_with_reason_5_reftag_36()
    {
        using var h = new SessionHarness();
        h.LogOn();
        h.Feed(TestMsg.Order(2));
        h.Feed(TestMsg.Order(3));

        h.Feed(TestMsg.SequenceReset(4, 2, gapFill: false));

        SentMessage reject = h.Single("3");
        Assert.Equal(5, reject.GetInt(373));
        Assert.Equal(36, reject.GetInt(371));
        Assert.Equal(4, reject.GetInt(45));
        Assert.Equal("4", reject.Get(372));
        Assert.Equal(4, h.Session.NextTargetSeqNum);
        Assert.Equal(SessionState.Active, h.Session.State);
    }

    [Theory]
    [InlineData(2, 3)] // numbered as expected: rejected, and its number spent
    [InlineData(7, 2)] // numbered ahead: rejected, nothing moves
    public void Reset_mode_with_a_field_the_validator_refused_is_rejected_and_moves_nothing(int seq, int nextExpected)
    {
        using var h = new SessionHarness();
        h.LogOn();

        // GapFillFlag(123) "X" does not read as Y, so the message looks like Reset mode; the validator flagged it.
        TestMsg reset = TestMsg.SequenceReset(seq, 20, gapFill: false);
        reset.ParseReject = Exchange.Fix.Codec.SessionRejectReason.ValueIsIncorrect;
        reset.ParseRejectTag = 123;
        h.Feed(reset);

        SentMessage reject = h.Single("3");
        Assert.Equal(5, reject.GetInt(373));
        Assert.Equal(123, reject.GetInt(371));
        Assert.Equal(seq, reject.GetInt(45));
        Assert.Equal(nextExpected, h.Session.NextTargetSeqNum);
        Assert.Equal(SessionState.Active, h.Session.State);
    }
}
