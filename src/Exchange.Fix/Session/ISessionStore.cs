namespace Exchange.Fix.Session;

/// <summary>
/// Persistent state of one FIX session: the next sequence numbers both ways and the outbound application messages
/// (for ResendRequests). Admin messages are not stored; a resend covers them with SequenceReset-GapFill.
/// Single-threaded: only the thread driving the owning <see cref="FixSession"/> calls it.
/// </summary>
public interface ISessionStore : IDisposable
{
    /// <summary>The <see cref="LastEventId"/> of a store that cannot tell which reports it holds.</summary>
    const long UnknownEventId = -1;

    /// <summary>MsgSeqNum the venue will put on its next outbound message (starts at 1).</summary>
    int NextSenderSeqNum { get; }

    /// <summary>MsgSeqNum the venue expects on the next inbound message (starts at 1).</summary>
    int NextTargetSeqNum { get; }

    void SetNextSenderSeqNum(int value);

    void SetNextTargetSeqNum(int value);

    /// <summary>
    /// The id of the last report stored with one (the venue's engine event id, its ExecID source), so that a restart
    /// can tell exactly which reports rebuilt from the journal never reached this store. 0 when none was stored since
    /// the store began counting; <see cref="UnknownEventId"/> when the store cannot tell (a new file, a store kept
    /// in memory across a restart, or a file written before stores kept this).
    /// </summary>
    /// <remarks>Survives <see cref="Reset"/>: a sequence reset renumbers messages, it does not undo reports.</remarks>
    long LastEventId { get; }

    /// <summary>
    /// Keeps an outbound application message sent as <paramref name="msgSeqNum"/> and sets
    /// <see cref="NextSenderSeqNum"/> to <paramref name="msgSeqNum"/> + 1 in the same record. An
    /// <paramref name="eventId"/> above 0 (strictly increasing from one report to the next) also becomes
    /// <see cref="LastEventId"/> in that record, so the message and the position can never disagree after a crash.
    /// </summary>
    void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body, long eventId = 0);

    /// <summary>Records <see cref="LastEventId"/> without a message (a store that could not tell starts counting here).</summary>
    void SetLastEventId(long eventId);

    /// <summary>False when <paramref name="msgSeqNum"/> was an admin message, never sent, or dropped by a reset.</summary>
    bool TryGetOutbound(int msgSeqNum, out StoredMessage message);

    /// <summary>Both sequence numbers back to 1 and every stored message dropped (Logon with ResetSeqNumFlag=Y).</summary>
    void Reset();

    /// <summary>Makes everything written so far durable according to the store's policy.</summary>
    void Flush();
}
