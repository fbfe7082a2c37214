using Exchange.Fix.Codec;

namespace Exchange.Fix.Session;

/// <summary>
/// An owned copy of an <see cref="InboundMessage"/> that arrived ahead of a sequence gap, replayed once the gap fills.
/// Allocates (one object and one byte[] per message); acceptable because gaps are the exceptional path.
/// <see cref="AlreadyHandled"/> marks a message that was acted on when it arrived (the Logon, a ResendRequest) and
/// only occupies its sequence number.
/// </summary>
internal sealed class QueuedInbound
{
    private readonly byte[] _bytes;
    private readonly SessionMsgType _type;
    private readonly int _seq;
    private readonly bool _possDup;
    private readonly long? _sendingTime;
    private readonly long? _origSendingTime;
    private readonly int? _heartBtInt;
    private readonly bool _reset;
    private readonly int _begin;
    private readonly int _end;
    private readonly int _newSeqNo;
    private readonly bool _gapFill;
    private readonly SessionRejectReason? _parseReject;
    private readonly int _parseRejectTag;
    private readonly Range _msgType;
    private readonly Range _sender;
    private readonly Range _target;
    private readonly Range _testReqId;
    private readonly Range _text;
    private readonly Range _raw;

    public QueuedInbound(in InboundMessage m, bool alreadyHandled)
    {
        AlreadyHandled = alreadyHandled;
        _type = m.Type;
        _seq = m.MsgSeqNum;
        _possDup = m.PossDupFlag;
        _sendingTime = m.SendingTimeNanos;
        _origSendingTime = m.OrigSendingTimeNanos;
        _heartBtInt = m.HeartBtInt;
        _reset = m.ResetSeqNumFlag;
        _begin = m.BeginSeqNo;
        _end = m.EndSeqNo;
        _newSeqNo = m.NewSeqNo;
        _gapFill = m.GapFillFlag;
        _parseReject = m.ParseReject;
        _parseRejectTag = m.ParseRejectTag;
        _bytes = new byte[m.MsgType.Length + m.SenderCompID.Length + m.TargetCompID.Length + m.TestReqID.Length + m.Text.Length + m.Raw.Length];
        int at = 0;
        _msgType = Copy(m.MsgType, ref at);
        _sender = Copy(m.SenderCompID, ref at);
        _target = Copy(m.TargetCompID, ref at);
        _testReqId = Copy(m.TestReqID, ref at);
        _text = Copy(m.Text, ref at);
        _raw = Copy(m.Raw, ref at);
    }

    public bool AlreadyHandled { get; }

    public int MsgSeqNum => _seq;

    public InboundMessage ToMessage() => new()
    {
        Type = _type,
        MsgType = _bytes.AsSpan(_msgType),
        MsgSeqNum = _seq,
        PossDupFlag = _possDup,
        SendingTimeNanos = _sendingTime,
        OrigSendingTimeNanos = _origSendingTime,
        SenderCompID = _bytes.AsSpan(_sender),
        TargetCompID = _bytes.AsSpan(_target),
        HeartBtInt = _heartBtInt,
        ResetSeqNumFlag = _reset,
        TestReqID = _bytes.AsSpan(_testReqId),
        BeginSeqNo = _begin,
        EndSeqNo = _end,
        NewSeqNo = _newSeqNo,
        GapFillFlag = _gapFill,
        Text = _bytes.AsSpan(_text),
        ParseReject = _parseReject,
        ParseRejectTag = _parseRejectTag,
        Raw = _bytes.AsSpan(_raw),
    };

    private Range Copy(ReadOnlySpan<byte> source, ref int at)
    {
        source.CopyTo(_bytes.AsSpan(at));
        var range = new Range(at, at + source.Length);
        at += source.Length;
        return range;
    }
}
