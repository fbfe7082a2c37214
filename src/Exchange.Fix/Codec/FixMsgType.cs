namespace Exchange.Fix.Codec;

/// <summary>
/// The MsgType (35) values this venue handles, each equal to its one-character wire value.
/// <see cref="Other"/>: any other (possibly valid) type; read <see cref="FixMessage.MsgType"/> for its bytes.
/// </summary>
public enum FixMsgType : byte
{
    Other = 0,
    Heartbeat = (byte)'0',
    TestRequest = (byte)'1',
    ResendRequest = (byte)'2',
    Reject = (byte)'3',
    SequenceReset = (byte)'4',
    Logout = (byte)'5',
    ExecutionReport = (byte)'8',
    OrderCancelReject = (byte)'9',
    Logon = (byte)'A',
    NewOrderSingle = (byte)'D',
    OrderCancelRequest = (byte)'F',
    OrderCancelReplaceRequest = (byte)'G',
    OrderStatusRequest = (byte)'H',
    MarketDataRequest = (byte)'V',
    MarketDataSnapshotFullRefresh = (byte)'W',
    MarketDataIncrementalRefresh = (byte)'X',
    MarketDataRequestReject = (byte)'Y',
    BusinessMessageReject = (byte)'j',
    OrderMassCancelRequest = (byte)'q',
    OrderMassCancelReport = (byte)'r',
}

/// <summary>Conversions between <see cref="FixMsgType"/> and wire bytes.</summary>
public static class FixMsgTypes
{
    public static FixMsgType FromWire(ReadOnlySpan<byte> value)
    {
        if (value.Length != 1)
        {
            return FixMsgType.Other;
        }

        var type = (FixMsgType)value[0];
        return type switch
        {
            FixMsgType.Heartbeat or FixMsgType.TestRequest or FixMsgType.ResendRequest or FixMsgType.Reject or
            FixMsgType.SequenceReset or FixMsgType.Logout or FixMsgType.ExecutionReport or FixMsgType.OrderCancelReject or
            FixMsgType.Logon or FixMsgType.NewOrderSingle or FixMsgType.OrderCancelRequest or
            FixMsgType.OrderCancelReplaceRequest or FixMsgType.OrderStatusRequest or FixMsgType.MarketDataRequest or FixMsgType.MarketDataSnapshotFullRefresh or
            FixMsgType.MarketDataIncrementalRefresh or FixMsgType.MarketDataRequestReject or FixMsgType.BusinessMessageReject or
            FixMsgType.OrderMassCancelRequest or FixMsgType.OrderMassCancelReport => type,
            _ => FixMsgType.Other,
        };
    }
}
