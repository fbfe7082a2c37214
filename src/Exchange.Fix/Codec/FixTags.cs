namespace Exchange.Fix.Codec;

/// <summary>Tag numbers the codec and session layer use by name.</summary>
public static class FixTags
{
    public const int AvgPx = 6;
    public const int BeginString = 8;
    public const int BodyLength = 9;
    public const int CheckSum = 10;
    public const int ClOrdID = 11;
    public const int CumQty = 14;
    public const int ExecID = 17;
    public const int LastPx = 31;
    public const int LastQty = 32;
    public const int MsgSeqNum = 34;
    public const int MsgType = 35;
    public const int OrderID = 37;
    public const int OrderQty = 38;
    public const int OrdStatus = 39;
    public const int OrdType = 40;
    public const int OrigClOrdID = 41;
    public const int PossDupFlag = 43;
    public const int Price = 44;
    public const int RefSeqNum = 45;
    public const int SenderCompID = 49;
    public const int SendingTime = 52;
    public const int Side = 54;
    public const int Symbol = 55;
    public const int TargetCompID = 56;
    public const int Text = 58;
    public const int TimeInForce = 59;
    public const int TransactTime = 60;
    public const int PossResend = 97;
    public const int EncryptMethod = 98;
    public const int HeartBtInt = 108;
    public const int TestReqID = 112;
    public const int OrigSendingTime = 122;
    public const int GapFillFlag = 123;
    public const int ResetSeqNumFlag = 141;
    public const int BeginSeqNo = 7;
    public const int EndSeqNo = 16;
    public const int NewSeqNo = 36;
    public const int OrdRejReason = 103;
    public const int CxlRejReason = 102;
    public const int NoRelatedSym = 146;
    public const int ExecType = 150;
    public const int LeavesQty = 151;
    public const int MDReqID = 262;
    public const int SubscriptionRequestType = 263;
    public const int MarketDepth = 264;
    public const int MDUpdateType = 265;
    public const int AggregatedBook = 266;
    public const int NoMDEntryTypes = 267;
    public const int MDEntryType = 269;
    public const int RefTagID = 371;
    public const int RefMsgType = 372;
    public const int BusinessRejectRefID = 379;
    public const int SessionRejectReason = 373;
    public const int BusinessRejectReason = 380;
    public const int CxlRejResponseTo = 434;
    public const int OrdStatusReqID = 790;

    // Order mass cancel (35=q/r).
    public const int MassCancelRequestType = 530;
    public const int MassCancelResponse = 531;
    public const int MassCancelRejectReason = 532;
    public const int TotalAffectedOrders = 533;

    // Market data (35=W/X/Y).
    public const int NoMDEntries = 268;
    public const int MDEntryPx = 270;
    public const int MDEntrySize = 271;
    public const int MDUpdateAction = 279;
    public const int MDReqRejReason = 281;
    public const int MDEntryPositionNo = 290;
    public const int NumberOfOrders = 346;
}
