using System.Text;
using Exchange.Fix.Codec;
using Exchange.Fix.Session;

using Exchange.Tests.Shared;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// A mutable description of one inbound message, turned into an <see cref="InboundMessage"/> at feed time (the
/// ref struct cannot be stored). SendingTime defaults to the fake clock's "now" at feed time.
/// </summary>
internal sealed class TestMsg
{
    public SessionMsgType Type { get; set; }

    public string MsgType { get; set; } = "0";

    public int Seq { get; set; }

    public bool PossDup { get; set; }

    public long? SendingTime { get; set; }

    public bool OmitSendingTime { get; set; }

    public long? OrigSendingTime { get; set; }

    public string Sender { get; set; } = SessionHarness.Client;

    public string Target { get; set; } = SessionHarness.Venue;

    public int? HeartBtInt { get; set; }

    public bool Reset { get; set; }

    public string TestReqId { get; set; } = "";

    public int Begin { get; set; }

    public int End { get; set; }

    public int NewSeqNo { get; set; }

    public bool GapFill { get; set; }

    public bool Garbled { get; set; }

    public bool WrongBeginString { get; set; }

    public SessionRejectReason? ParseReject { get; set; }

    public int ParseRejectTag { get; set; }

    public static TestMsg Logon(int seq, int? heartBtInt = 30, bool reset = false) =>
        new() { Type = SessionMsgType.Logon, MsgType = "A", Seq = seq, HeartBtInt = heartBtInt, Reset = reset };

    public static TestMsg Heartbeat(int seq, string testReqId = "") =>
        new() { Type = SessionMsgType.Heartbeat, MsgType = "0", Seq = seq, TestReqId = testReqId };

    public static TestMsg TestRequest(int seq, string id) =>
        new() { Type = SessionMsgType.TestRequest, MsgType = "1", Seq = seq, TestReqId = id };

    public static TestMsg ResendRequest(int seq, int begin, int end) =>
        new() { Type = SessionMsgType.ResendRequest, MsgType = "2", Seq = seq, Begin = begin, End = end };

    public static TestMsg SequenceReset(int seq, int newSeqNo, bool gapFill) =>
        new() { Type = SessionMsgType.SequenceReset, MsgType = "4", Seq = seq, NewSeqNo = newSeqNo, GapFill = gapFill };

    public static TestMsg Logout(int seq) => new() { Type = SessionMsgType.Logout, MsgType = "5", Seq = seq };

    public static TestMsg Order(int seq) => new() { Type = SessionMsgType.Application, MsgType = "D", Seq = seq };

    public TestMsg AsPossDup(long? origSendingTime)
    {
        PossDup = true;
        OrigSendingTime = origSendingTime;
        return this;
    }

    public void Feed(FixSession session, FakeClock clock)
    {
        InboundMessage m = Build(clock, out _);
        session.OnMessage(m);
    }

    public LogonRouting Route(SessionRegistry registry, FakeClock clock, ISessionTransport transport, ISessionApplication app, out FixSession? session)
    {
        InboundMessage m = Build(clock, out _);
        return registry.Route(m, transport, app, out session);
    }

    private InboundMessage Build(FakeClock clock, out string raw)
    {
        raw = $"8=FIX.4.4|35={MsgType}|34={Seq}|49={Sender}|56={Target}|";
        return new InboundMessage
        {
            Type = Type,
            MsgType = Encoding.ASCII.GetBytes(MsgType),
            MsgSeqNum = Seq,
            PossDupFlag = PossDup,
            SendingTimeNanos = OmitSendingTime ? null : SendingTime ?? clock.UtcNowNanos,
            OrigSendingTimeNanos = OrigSendingTime,
            SenderCompID = Encoding.Latin1.GetBytes(Sender), // Latin1: a test can send a byte that is not ASCII
            TargetCompID = Encoding.Latin1.GetBytes(Target),
            HeartBtInt = HeartBtInt,
            ResetSeqNumFlag = Reset,
            TestReqID = Encoding.ASCII.GetBytes(TestReqId),
            BeginSeqNo = Begin,
            EndSeqNo = End,
            NewSeqNo = NewSeqNo,
            GapFillFlag = GapFill,
            IsGarbled = Garbled,
            WrongBeginString = WrongBeginString,
            ParseReject = ParseReject,
            ParseRejectTag = ParseRejectTag,
            Raw = Encoding.ASCII.GetBytes(raw),
        };
    }
}
