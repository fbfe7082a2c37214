namespace Exchange.Fix.Session;

/// <summary>
/// The standard-header values the session decides for one outbound message. The encoder writes, in order:
/// 8=FIX.4.4, 9 (computed), 35, 49, 56, 34, 52, then 43=Y and 122 when <see cref="PossDupFlag"/> is set, then the
/// body bytes, then 10 (computed).
/// </summary>
public readonly ref struct OutboundHeader
{
    public ReadOnlySpan<byte> MsgType { get; init; }

    public ReadOnlySpan<byte> SenderCompID { get; init; }

    public ReadOnlySpan<byte> TargetCompID { get; init; }

    public int MsgSeqNum { get; init; }

    /// <summary>SendingTime (52) in Unix nanoseconds; the encoder writes it with millisecond precision.</summary>
    public long SendingTimeNanos { get; init; }

    public bool PossDupFlag { get; init; }

    /// <summary>OrigSendingTime (122) in Unix nanoseconds; written only with <see cref="PossDupFlag"/>.</summary>
    public long OrigSendingTimeNanos { get; init; }
}
