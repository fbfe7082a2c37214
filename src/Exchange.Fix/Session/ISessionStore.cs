namespace Exchange.Fix.Session;

/// <summary>
/// Persistent state of one FIX session: the next sequence numbers both ways, the outbound application messages (for
/// ResendRequests) and which of them are queued: stored while no client was logged on and never written to one since.
/// Admin messages are not stored; a resend covers them with SequenceReset-GapFill.
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
    /// <param name="queued">
    /// True when no client is logged on to write the message to: it is queued (<see cref="IsQueued"/>) until
    /// <see cref="MarkDelivered"/> covers it, and a <see cref="Reset"/> keeps it. Kept in the message's own record.
    /// </param>
    void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body, long eventId = 0, bool queued = false);

    /// <summary>Records <see cref="LastEventId"/> without a message (a store that could not tell starts counting here).</summary>
    void SetLastEventId(long eventId);

    /// <summary>False when <paramref name="msgSeqNum"/> was an admin message, never sent, or dropped by a reset.</summary>
    bool TryGetOutbound(int msgSeqNum, out StoredMessage message);

    /// <summary>True for a message stored queued that no <see cref="MarkDelivered"/> has covered since.</summary>
    bool IsQueued(int msgSeqNum);

    /// <summary>
    /// The messages <paramref name="firstSeqNum"/>..<paramref name="lastSeqNum"/> were written to a logged-on client
    /// (a resend, or the delivery after a reset): none of them is queued any more. Recorded only when one was.
    /// </summary>
    void MarkDelivered(int firstSeqNum, int lastSeqNum);

    /// <summary>
    /// Starts the numbering again (Logon with ResetSeqNumFlag=Y): the next target number back to 1, every delivered
    /// message dropped, and the queued ones kept, in order and still queued, renumbered from
    /// <paramref name="firstQueuedSeqNum"/> with <paramref name="sendingTimeNanos"/> as their SendingTime;
    /// <see cref="NextSenderSeqNum"/> follows the last of them (or is <paramref name="firstQueuedSeqNum"/>). Numbers
    /// below <paramref name="firstQueuedSeqNum"/> are the caller's to send unstored (the reset Logon's reply is 1).
    /// </summary>
    /// <remarks>
    /// The queued messages are ones the client never saw (reports recovered at start-up, or sent while it was away):
    /// a reset renumbers what the client has, it must not lose what the client does not have yet. A crash during the
    /// reset leaves either the store before it or the store after it, never neither.
    /// </remarks>
    /// <returns>How many queued messages the store no longer held and so could not keep (an in-memory store's ring
    /// overwrites its oldest messages); 0 for a store that keeps everything.</returns>
    int Reset(int firstQueuedSeqNum, long sendingTimeNanos);

    /// <summary>
    /// True when <see cref="PrepareNextRecord"/> has work to do (a preparation that has lapsed counts); always false for
    /// a store that never needs preparing. May be called without the session's lock by the one thread that prepares,
    /// as a hint: other threads may be writing the store meanwhile, and its only write forgets a lapsed preparation,
    /// which is always safe.
    /// </summary>
    bool NeedsPrepare => false;

    /// <summary>
    /// Makes the pages the next record will be written to writable now, so storing it does not take a page fault on
    /// the order path (a file store's new file pages); false when there was nothing to do. Called under the session's
    /// lock, at a moment nothing waits on the store.
    /// </summary>
    bool PrepareNextRecord() => false;

    /// <summary>Makes everything written so far durable according to the store's policy.</summary>
    void Flush();
}
