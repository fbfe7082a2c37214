namespace Exchange.Fix.Session;

/// <summary>
/// Persistent state of one FIX session: the next sequence numbers both ways and the outbound application messages
/// (for ResendRequests). Admin messages are not stored; a resend covers them with SequenceReset-GapFill.
/// Single-threaded: only the thread driving the owning <see cref="FixSession"/> calls it.
/// </summary>
public interface ISessionStore : IDisposable
{
    /// <summary>MsgSeqNum the venue will put on its next outbound message (starts at 1).</summary>
    int NextSenderSeqNum { get; }

    /// <summary>MsgSeqNum the venue expects on the next inbound message (starts at 1).</summary>
    int NextTargetSeqNum { get; }

    void SetNextSenderSeqNum(int value);

    void SetNextTargetSeqNum(int value);

    /// <summary>
    /// Keeps an outbound application message sent as <paramref name="msgSeqNum"/> and sets
    /// <see cref="NextSenderSeqNum"/> to <paramref name="msgSeqNum"/> + 1 in the same record.
    /// </summary>
    void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body);

    /// <summary>False when <paramref name="msgSeqNum"/> was an admin message, never sent, or dropped by a reset.</summary>
    bool TryGetOutbound(int msgSeqNum, out StoredMessage message);

    /// <summary>Both sequence numbers back to 1 and every stored message dropped (Logon with ResetSeqNumFlag=Y).</summary>
    void Reset();

    /// <summary>Makes everything written so far durable according to the store's policy.</summary>
    void Flush();
}
