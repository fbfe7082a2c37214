using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>Fills the session layer's <see cref="InboundMessage"/> from a parsed, validated <see cref="FixMessage"/>. No allocation.</summary>
internal static class InboundMessages
{
    /// <param name="error">The dictionary's verdict (<see cref="FixDictionary.Validate"/>), reported as a session Reject.</param>
    /// <remarks>
    /// Reads the admin-only fields (HeartBtInt, TestReqID, BeginSeqNo...) only for the admin types whose rules use
    /// them (the session ignores fields that do not belong to a message's type), so an order pays for its header
    /// lookups alone. Values come from the validator's parsed fields where it checked them.
    /// </remarks>
    public static InboundMessage From(FixMessage message, FixFieldError error, FixDictionary dictionary)
    {
        ReadOnlySpan<byte> msgType = message.MsgType;
        SessionMsgType type = Classify(message.MsgTypeKind, msgType, dictionary);
        var inbound = new InboundMessage
        {
            Type = type,
            MsgType = msgType,
            MsgSeqNum = message.ReadMsgSeqNum(out int seq) == FieldStatus.Ok ? seq : 0,
            PossDupFlag = message.PossDupFlag,
            SendingTimeNanos = message.ReadSendingTime(out long sending) == FieldStatus.Ok ? sending : null,
            OrigSendingTimeNanos = message.ReadOrigSendingTime(out long orig) == FieldStatus.Ok ? orig : null,
            SenderCompID = message.SenderCompId,
            TargetCompID = message.TargetCompId,
            ParseReject = error.IsError ? error.Reason : null,
            ParseRejectTag = error.Tag,
            Raw = message.Raw,
        };

        return type is SessionMsgType.Application or SessionMsgType.UnsupportedApplication ? inbound : WithAdminFields(inbound, message);
    }

    /// <summary>The fields only admin messages carry (each read by the session for its own type only).</summary>
    private static InboundMessage WithAdminFields(InboundMessage inbound, FixMessage message) => inbound with
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

    private static SessionMsgType Classify(FixMsgType kind, ReadOnlySpan<byte> msgType, FixDictionary dictionary) => kind switch
    {
        FixMsgType.Heartbeat => SessionMsgType.Heartbeat,
        FixMsgType.TestRequest => SessionMsgType.TestRequest,
        FixMsgType.ResendRequest => SessionMsgType.ResendRequest,
        FixMsgType.Reject => SessionMsgType.Reject,
        FixMsgType.SequenceReset => SessionMsgType.SequenceReset,
        FixMsgType.Logout => SessionMsgType.Logout,
        FixMsgType.Logon => SessionMsgType.Logon,
        FixMsgType.NewOrderSingle or FixMsgType.OrderCancelRequest or FixMsgType.OrderCancelReplaceRequest or FixMsgType.MarketDataRequest => SessionMsgType.Application,
        _ => dictionary.IsDefinedMsgType(msgType) && !dictionary.IsAdminMsgType(msgType) ? SessionMsgType.UnsupportedApplication : SessionMsgType.Unknown,
    };
}
