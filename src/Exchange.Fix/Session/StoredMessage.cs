namespace Exchange.Fix.Session;

/// <summary>
/// An outbound application message as kept for resends: its MsgType, original SendingTime and encoded body (the
/// fields after the standard header). Spans point into the store's buffer and are valid until the next store call.
/// </summary>
public readonly ref struct StoredMessage
{
    public int MsgSeqNum { get; init; }

    public ReadOnlySpan<byte> MsgType { get; init; }

    public long SendingTimeNanos { get; init; }

    public ReadOnlySpan<byte> Body { get; init; }
}
