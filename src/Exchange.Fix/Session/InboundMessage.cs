using System.Runtime.CompilerServices;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Session;

/// <summary>
/// What the codec hands the session for one framed inbound message: the header and admin fields the session rules
/// need, plus the codec's verdict (garbled, wrong BeginString, or a field-level problem that must be answered with a
/// session Reject). Spans point into the codec's buffer and are only valid during the call they are passed to; the
/// session copies what it must keep (messages queued behind a sequence gap).
/// </summary>
/// <remarks>
/// Absent optional fields are null / empty. Fields that do not belong to the message's type are ignored. The codec
/// does not decide sequencing or session validity; it only reports what it parsed.
/// </remarks>
public readonly ref struct InboundMessage
{
    /// <summary>
    /// The header fields every message carries, set in one constructor call so the codec can build the message in
    /// place: an object initializer over this many fields makes the JIT zero and copy a temporary of the whole struct
    /// (~190 bytes) several times per message. Admin-only fields are added with an initializer where they apply.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal InboundMessage(
        SessionMsgType type,
        ReadOnlySpan<byte> msgType,
        int msgSeqNum,
        bool possDupFlag,
        long? sendingTimeNanos,
        long? origSendingTimeNanos,
        ReadOnlySpan<byte> senderCompId,
        ReadOnlySpan<byte> targetCompId,
        SessionRejectReason? parseReject,
        int parseRejectTag,
        ReadOnlySpan<byte> raw)
    {
        Type = type;
        MsgType = msgType;
        MsgSeqNum = msgSeqNum;
        PossDupFlag = possDupFlag;
        SendingTimeNanos = sendingTimeNanos;
        OrigSendingTimeNanos = origSendingTimeNanos;
        SenderCompID = senderCompId;
        TargetCompID = targetCompId;
        ParseReject = parseReject;
        ParseRejectTag = parseRejectTag;
        Raw = raw;

        // Every remaining field assigned too: a constructor that leaves fields unassigned makes the compiler zero the
        // whole struct first, which the JIT does by copying a zeroed ~190-byte temporary.
        HeartBtInt = null;
        ResetSeqNumFlag = false;
        TestReqID = default;
        BeginSeqNo = 0;
        EndSeqNo = 0;
        NewSeqNo = 0;
        GapFillFlag = false;
        Text = default;
        IsGarbled = false;
        WrongBeginString = false;
    }

    public SessionMsgType Type { get; init; }

    /// <summary>The raw MsgType (35) value, echoed in RefMsgType (372) of Reject and BusinessMessageReject.</summary>
    public ReadOnlySpan<byte> MsgType { get; init; }

    /// <summary>MsgSeqNum (34); 0 when the codec found none.</summary>
    public int MsgSeqNum { get; init; }

    public bool PossDupFlag { get; init; }

    /// <summary>SendingTime (52) in Unix nanoseconds; null when absent.</summary>
    public long? SendingTimeNanos { get; init; }

    /// <summary>OrigSendingTime (122) in Unix nanoseconds; null when absent or unreadable (then the codec's verdict says so).</summary>
    public long? OrigSendingTimeNanos { get; init; }

    public ReadOnlySpan<byte> SenderCompID { get; init; }

    public ReadOnlySpan<byte> TargetCompID { get; init; }

    /// <summary>HeartBtInt (108) of a Logon, in seconds; null when absent.</summary>
    public int? HeartBtInt { get; init; }

    /// <summary>ResetSeqNumFlag (141) of a Logon.</summary>
    public bool ResetSeqNumFlag { get; init; }

    /// <summary>TestReqID (112) of a TestRequest or Heartbeat.</summary>
    public ReadOnlySpan<byte> TestReqID { get; init; }

    /// <summary>BeginSeqNo (7) of a ResendRequest.</summary>
    public int BeginSeqNo { get; init; }

    /// <summary>EndSeqNo (16) of a ResendRequest; 0 means "everything after BeginSeqNo".</summary>
    public int EndSeqNo { get; init; }

    /// <summary>NewSeqNo (36) of a SequenceReset.</summary>
    public int NewSeqNo { get; init; }

    /// <summary>GapFillFlag (123) of a SequenceReset; false means Reset mode.</summary>
    public bool GapFillFlag { get; init; }

    /// <summary>Text (58), used for logs only.</summary>
    public ReadOnlySpan<byte> Text { get; init; }

    /// <summary>
    /// Bad checksum, wrong BodyLength, or the first three fields out of order. The session drops such a message
    /// without consuming a sequence number; before logon the connection is closed.
    /// </summary>
    public bool IsGarbled { get; init; }

    /// <summary>BeginString (8) is not FIX.4.4: Logout then disconnect (disconnect only before logon).</summary>
    public bool WrongBeginString { get; init; }

    /// <summary>
    /// A field-level problem the codec found (missing required tag, tag not defined for the type, empty value, bad
    /// format or value, repeated tag, out of order). When set, the message is answered with Reject (3) carrying this
    /// reason and <see cref="ParseRejectTag"/>, and its sequence number is consumed in order.
    /// </summary>
    public SessionRejectReason? ParseReject { get; init; }

    /// <summary>RefTagID (371) for <see cref="ParseReject"/>; 0 when no single tag is at fault.</summary>
    public int ParseRejectTag { get; init; }

    /// <summary>The whole message as received (8=... through 10=xxx|). Delivered application messages are read from it.</summary>
    public ReadOnlySpan<byte> Raw { get; init; }
}
