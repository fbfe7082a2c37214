using System.Runtime.CompilerServices;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>Fills the session layer's <see cref="InboundMessage"/> from a parsed, validated <see cref="FixMessage"/>. No allocation.</summary>
internal static class InboundMessages
{
    /// <summary>The session's view of a parsed message's type (application, admin, unsupported or unknown).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static SessionMsgType Classify(FixMessage message, FixDictionary dictionary) => Classify(message.MsgTypeKind, message.MsgType, dictionary);

    /// <summary>True for the types whose <see cref="InboundMessage"/> carries header fields only (see <see cref="Header"/>).</summary>
    public static bool IsApplication(SessionMsgType type) =>
        type is SessionMsgType.Application or SessionMsgType.UnsupportedApplication or SessionMsgType.BusinessMessageReject;

    /// <summary>
    /// The header part of the session's view of <paramref name="message"/>: all an application message needs (the
    /// session ignores fields that do not belong to a message's type, so an order pays for its header lookups alone).
    /// Values come from the validator's parsed fields where it checked them.
    /// </summary>
    /// <param name="error">The dictionary's verdict (<see cref="FixDictionary.Validate"/>), reported as a session Reject.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Header(FixMessage message, FixFieldError error, SessionMsgType type, out InboundMessage header) => header = new(
        type,
        message.MsgType,
        message.ReadMsgSeqNum(out int seq) == FieldStatus.Ok ? seq : 0,
        message.PossDupFlag,
        message.ReadSendingTime(out long sending) == FieldStatus.Ok ? sending : null,
        message.ReadOrigSendingTime(out long orig) == FieldStatus.Ok ? orig : null,
        message.SenderCompId,
        message.TargetCompId,
        error.IsError ? error.Reason : null,
        error.Tag,
        message.Raw);

    /// <summary>
    /// What <see cref="Header"/> gives for a clean application message whose MsgSeqNum and SendingTime were read
    /// elsewhere (<see cref="Mapping.FusedNewOrderReader"/>), with no PossDupFlag or OrigSendingTime (a layout with
    /// either never takes the fused read, see <see cref="Mapping.NewOrderLayout"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static InboundMessage CleanApplicationHeader(ReadOnlySpan<byte> raw, ReadOnlySpan<byte> msgType, int msgSeqNum, long sendingTime, ReadOnlySpan<byte> senderCompId, ReadOnlySpan<byte> targetCompId) => new(
        SessionMsgType.Application,
        msgType,
        msgSeqNum,
        possDupFlag: false,
        sendingTime,
        origSendingTimeNanos: null,
        senderCompId,
        targetCompId,
        parseReject: null,
        parseRejectTag: 0,
        raw);

    /// <summary><paramref name="inbound"/> (a <see cref="Header"/>) plus the fields only admin messages carry (each read by the session for its own type only).</summary>
    /// <remarks>
    /// A Logon asking for encryption (EncryptMethod other than 0) gets the verdict of a bad value on tag 98, which the
    /// session answers with a Logout: the venue offers none, and accepting would tell the client its messages are
    /// protected when they are not. Decided here, off the order path, so the per-order message stays as small as it is.
    /// </remarks>
    public static InboundMessage WithAdminFields(in InboundMessage inbound, FixMessage message)
    {
        InboundMessage admin = WithAdminValues(inbound, message);
        if (admin.Type == SessionMsgType.Logon && admin.ParseReject is null &&
            message.ReadInt(FixTags.EncryptMethod, out int encryptMethod) == FieldStatus.Ok && encryptMethod != 0)
        {
            admin = admin with { ParseReject = SessionRejectReason.ValueIsIncorrect, ParseRejectTag = FixTags.EncryptMethod };
        }

        return admin;
    }

    private static InboundMessage WithAdminValues(in InboundMessage inbound, FixMessage message) => inbound with
    {
        HeartBtInt = message.ReadInt(FixTags.HeartBtInt, out int heartBtInt) == FieldStatus.Ok ? heartBtInt : null,
        ResetSeqNumFlag = message.TryGetBool(FixTags.ResetSeqNumFlag, out bool reset) && reset,
        TestReqID = message.GetSpan(FixTags.TestReqID),
        BeginSeqNo = message.TryGetInt(FixTags.BeginSeqNo, out int begin) ? begin : 0,
        EndSeqNo = message.TryGetInt(FixTags.EndSeqNo, out int end) ? end : 0,
        NewSeqNo = message.TryGetInt(FixTags.NewSeqNo, out int newSeqNo) ? newSeqNo : 0,
        GapFillFlag = message.TryGetBool(FixTags.GapFillFlag, out bool gapFill) && gapFill,
        Text = message.GetSpan(FixTags.Text),
    };

    /// <summary>A frame the framer could not accept; <paramref name="wrongBeginString"/> when it began "8=FIX" with another version.</summary>
    public static InboundMessage Garbled(bool wrongBeginString) => new() { IsGarbled = !wrongBeginString, WrongBeginString = wrongBeginString, Type = SessionMsgType.Unknown };

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static SessionMsgType Classify(FixMsgType kind, ReadOnlySpan<byte> msgType, FixDictionary dictionary) => kind switch
    {
        FixMsgType.Heartbeat => SessionMsgType.Heartbeat,
        FixMsgType.TestRequest => SessionMsgType.TestRequest,
        FixMsgType.ResendRequest => SessionMsgType.ResendRequest,
        FixMsgType.Reject => SessionMsgType.Reject,
        FixMsgType.SequenceReset => SessionMsgType.SequenceReset,
        FixMsgType.Logout => SessionMsgType.Logout,
        FixMsgType.Logon => SessionMsgType.Logon,
        FixMsgType.NewOrderSingle or FixMsgType.OrderCancelRequest or FixMsgType.OrderCancelReplaceRequest or
            FixMsgType.OrderStatusRequest or FixMsgType.OrderMassCancelRequest or FixMsgType.MarketDataRequest => SessionMsgType.Application,
        FixMsgType.BusinessMessageReject => SessionMsgType.BusinessMessageReject,
        _ => dictionary.IsDefinedMsgType(msgType) && !dictionary.IsAdminMsgType(msgType) ? SessionMsgType.UnsupportedApplication : SessionMsgType.Unknown,
    };
}
