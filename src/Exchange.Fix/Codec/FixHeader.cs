namespace Exchange.Fix.Codec;

/// <summary>
/// Standard-header values the session layer supplies for each outbound message. CompIDs are raw ASCII bytes;
/// times are nanoseconds since the Unix epoch (written with millisecond precision).
/// </summary>
/// <remarks>For a resend set <see cref="PossDup"/> and <see cref="OrigSendingTime"/> (the first sending time).</remarks>
public readonly ref struct FixHeader
{
    public FixHeader(ReadOnlySpan<byte> senderCompId, ReadOnlySpan<byte> targetCompId, int msgSeqNum, long sendingTime)
    {
        SenderCompId = senderCompId;
        TargetCompId = targetCompId;
        MsgSeqNum = msgSeqNum;
        SendingTime = sendingTime;
    }

    public ReadOnlySpan<byte> SenderCompId { get; }

    public ReadOnlySpan<byte> TargetCompId { get; }

    public int MsgSeqNum { get; }

    public long SendingTime { get; }

    /// <summary>Writes PossDupFlag (43) = Y.</summary>
    public bool PossDup { get; init; }

    /// <summary>When <see cref="PossDup"/>: OrigSendingTime (122).</summary>
    public long OrigSendingTime { get; init; }
}
