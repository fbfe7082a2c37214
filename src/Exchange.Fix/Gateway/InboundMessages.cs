using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>Fills the session layer's <see cref="InboundMessage"/> from a parsed, validated <see cref="FixMessage"/>. No allocation.</summary>
internal static class InboundMessages
{
    /// <param name="error">The dictionary's verdict (<see cref="FixDictionary.Validate"/>), reported as a session Reject.</param>
    public static InboundMessage From(FixMessage message, FixFieldError error, FixDictionary dictionary)
    {
        ReadOnlySpan<byte> msgType = message.MsgType;
        return new InboundMessage
        {
            Type = Classify(message.MsgTypeKind, msgType, dictionary),
            MsgType = msgType,
            MsgSeqNum = message.ReadMsgSeqNum(out int seq) == FieldStatus.Ok ? seq : 0,
            PossDupFlag = message.PossDupFlag,
            SendingTimeNanos = message.ReadSendingTime(out long sending) == FieldStatus.Ok ? sending : null,
            OrigSendingTimeNanos = message.ReadOrigSendingTime(out long orig) == FieldStatus.Ok ? orig : null,
            SenderCompID = message.SenderCompId,
            TargetCompID = message.TargetCompId,
            HeartBtInt = message.ReadInt(FixTags.HeartBtInt, out int heartBtInt) == FieldStatus.Ok ? heartBtInt : null,
            ResetSeqNumFlag = message.TryGetBool(FixTags.ResetSeqNumFlag, out bool reset) && reset,
            TestReqID = message.GetSpan(FixTags.TestReqID),
            BeginSeqNo = message.TryGetInt(FixTags.BeginSeqNo, out int begin) ? begin : 0,
            EndSeqNo = message.TryGetInt(FixTags.EndSeqNo, out int end) ? end : 0,
            NewSeqNo = message.TryGetInt(FixTags.NewSeqNo, out int newSeqNo) ? newSeqNo : 0,
            GapFillFlag = message.TryGetBool(FixTags.GapFillFlag, out bool gapFill) && gapFill,
            Text = message.GetSpan(FixTags.Text),
            ParseReject = error.IsError ? error.Reason : null,
            ParseRejectTag = error.Tag,
            Raw = message.Raw,
        };
    }

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
