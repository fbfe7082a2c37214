using Exchange.Fix.Codec;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

public sealed class RejectTests
{
    public static TheoryData<SessionRejectReason, int> CodecProblems => new()
    {
        { SessionRejectReason.RequiredTagMissing, 55 },
        { SessionRejectReason.TagNotDefinedForMessageType, 9999 },
        { SessionRejectReason.TagSpecifiedWithoutValue, 38 },
        { SessionRejectReason.ValueIsIncorrect, 54 },
        { SessionRejectReason.IncorrectDataFormat, 44 },
        { SessionRejectReason.TagAppearsMoreThanOnce, 11 },
        { SessionRejectReason.TagSpecifiedOutOfRequiredOrder, 34 },
        { SessionRejectReason.InvalidMsgType, 35 },
    };

    [Theory]
    [MemberData(nameof(CodecProblems))]
    public void Codec_reported_problem_is_answered_with_reject_and_consumes_the_seqnum(SessionRejectReason reason, int tag)
    {
        using var h = new SessionHarness();
        h.LogOn();
        TestMsg m = TestMsg.Order(2);
        m.ParseReject = reason;
        m.ParseRejectTag = tag;

        h.Feed(m);

        SentMessage reject = h.Single("3");
        Assert.Equal(2, reject.GetInt(45));
        Assert.Equal(tag, reject.GetInt(371));
        Assert.Equal("D", reject.Get(372));
        Assert.Equal((int)reason, reject.GetInt(373));
        Assert.False(string.IsNullOrEmpty(reject.Get(58)));
        Assert.Empty(h.App.Delivered);
        Assert.Equal(3, h.Session.NextTargetSeqNum);
        Assert.Equal(SessionState.Active, h.Session.State);
    }

    [Fact]
    public void Codec_problem_on_a_message_ahead_of_a_gap_is_rejected_when_its_turn_comes()
    {
        using var h = new SessionHarness();
        h.LogOn();
        TestMsg bad = TestMsg.Order(3);
        bad.ParseReject = SessionRejectReason.RequiredTagMissing;
        bad.ParseRejectTag = 55;

        h.Feed(bad);
        Assert.DoesNotContain(h.Sent, s => s.MsgType == "3");

        h.Feed(TestMsg.Order(2).AsPossDup(h.Clock.UtcNowNanos));
        Assert.Equal(3, h.Single("3").GetInt(45));
        Assert.Equal([2], h.App.DeliveredSeqs);
        Assert.Equal(4, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void Missing_sendingtime_is_rejected_as_required_tag_missing()
    {
        using var h = new SessionHarness();
        h.LogOn();
        TestMsg m = TestMsg.Order(2);
        m.OmitSendingTime = true;

        h.Feed(m);

        SentMessage reject = h.Single("3");
        Assert.Equal(1, reject.GetInt(373));
        Assert.Equal(52, reject.GetInt(371));
    }

    [Fact]
    public void Unknown_msgtype_is_rejected_with_reason_11()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(new TestMsg { Type = SessionMsgType.Unknown, MsgType = "ZZ", Seq = 2 });

        SentMessage reject = h.Single("3");
        Assert.Equal(11, reject.GetInt(373));
        Assert.Equal(35, reject.GetInt(371));
        Assert.Equal("ZZ", reject.Get(372));
        Assert.Equal(3, h.Session.NextTargetSeqNum);
    }

    [Fact]
    public void Unsupported_application_type_gets_business_message_reject_that_is_stored_for_resend()
    {
        using var h = new SessionHarness();
        h.LogOn();

        h.Feed(new TestMsg { Type = SessionMsgType.UnsupportedApplication, MsgType = "AE", Seq = 2 });

        SentMessage bmr = h.Single("j");
        Assert.Equal(2, bmr.GetInt(45));
        Assert.Equal("AE", bmr.Get(372));
        Assert.Equal(3, bmr.GetInt(380));
        Assert.Empty(h.App.Delivered);
        Assert.Equal(3, h.Session.NextTargetSeqNum);
        Assert.True(h.Store.TryGetOutbound(bmr.SeqNum, out StoredMessage stored));
        Assert.True(stored.MsgType.SequenceEqual("j"u8));
    }

    [Theory]
    [InlineData("OTHER", SessionHarness.Venue, 49)]
    [InlineData(SessionHarness.Client, "OTHER", 56)]
    public void Compid_mismatch_mid_session_gets_reject_9_then_logout_then_disconnect(string sender, string target, int refTag)
    {
        using var h = new SessionHarness();
        h.LogOn();
        TestMsg m = TestMsg.Order(2);
        m.Sender = sender;
        m.Target = target;

        h.Feed(m);

        Assert.Equal(["3", "5"], h.Sent.ConvertAll(s => s.MsgType));
        Assert.Equal(9, h.Sent[0].GetInt(373));
        Assert.Equal(refTag, h.Sent[0].GetInt(371));
        Assert.Equal([DisconnectReason.CompIdProblem], h.Transport.Disconnects);
        Assert.Empty(h.App.Delivered);
        Assert.Equal(3, h.Session.NextTargetSeqNum);
    }

    [Theory]
    [InlineData(-121)]
    [InlineData(121)]
    public void Sendingtime_more_than_120s_off_gets_reject_10_then_logout_then_disconnect(int offsetSeconds)
    {
        using var h = new SessionHarness();
        h.LogOn();
        TestMsg m = TestMsg.Order(2);
        m.SendingTime = h.Clock.UtcNowNanos + (offsetSeconds * 1_000_000_000L);

        h.Feed(m);

        Assert.Equal(["3", "5"], h.Sent.ConvertAll(s => s.MsgType));
        Assert.Equal(10, h.Sent[0].GetInt(373));
        Assert.Equal(52, h.Sent[0].GetInt(371));
        Assert.Equal([DisconnectReason.SendingTimeAccuracyProblem], h.Transport.Disconnects);
    }

    [Fact]
    public void Sendingtime_within_120s_is_accepted()
    {
        using var h = new SessionHarness();
        h.LogOn();
        TestMsg m = TestMsg.Order(2);
        m.SendingTime = h.Clock.UtcNowNanos - (120 * 1_000_000_000L);

        h.Feed(m);

        Assert.Empty(h.Sent);
        Assert.Equal([2], h.App.DeliveredSeqs);
    }

    [Fact]
    public void Wrong_beginstring_mid_session_gets_logout_then_disconnect()
    {
        using var h = new SessionHarness();
        h.LogOn();
        TestMsg m = TestMsg.Order(2);
        m.WrongBeginString = true;

        h.Feed(m);

        Assert.Equal("Incorrect BeginString", h.Single("5").Get(58));
        Assert.Equal([DisconnectReason.WrongBeginString], h.Transport.Disconnects);
    }
}
