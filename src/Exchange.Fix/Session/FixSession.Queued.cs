namespace Exchange.Fix.Session;

/// <summary>
/// Messages queued for an absent client (stored while no client was logged on, never written to one since: reports
/// recovered at start-up, or sent while the client was away) across a Logon with ResetSeqNumFlag=Y.
/// </summary>
/// <remarks>
/// A client resumes a session either way. On a plain Logon it sees the gap in our MsgSeqNum and its ResendRequest
/// brings the queued messages (PossDupFlag=Y), which marks them delivered. A reset Logon instead restarts both
/// numberings, so no ResendRequest can reach anything stored under the old one; the store keeps the queued messages
/// through the reset, numbered after the reply Logon, and they go out at once as new messages.
/// </remarks>
public sealed partial class FixSession
{
    /// <summary>FIX: the reply to a Logon with ResetSeqNumFlag=Y is number 1.</summary>
    private const int ResetLogonSeqNum = 1;

    /// <summary>Both numberings back to the start; the queued messages become 2, 3, ... behind the reply Logon.</summary>
    private void ResetNumbering() => QueuedMessagesLost += _store.Reset(ResetLogonSeqNum + 1, _clock.UtcNowNanos);

    /// <summary>
    /// Messages queued for the absent client that its store no longer held when they were due: gap-filled on a resend,
    /// or left out at a reset Logon. Only an in-memory store loses them (its ring overwrites the oldest messages; see
    /// <see cref="MemorySessionStore"/>). The gateway logs each increase.
    /// </summary>
    public long QueuedMessagesLost { get; private set; }

    /// <summary>
    /// Right after the reply to a reset Logon: every message the reset kept goes out under its new number, not
    /// PossDup (the client never had that number), body unchanged (ExecID, TransactTime), with the SendingTime the
    /// store gave it at the reset, so a later resend's OrigSendingTime is this transmission's.
    /// </summary>
    private void DeliverQueued()
    {
        int first = ResetLogonSeqNum + 1;
        int last = _store.NextSenderSeqNum - 1;
        if (last < first)
        {
            return;
        }

        for (int seq = first; seq <= last; seq++)
        {
            // Written before the next store call: the stored spans are only valid until then.
            if (_store.TryGetOutbound(seq, out StoredMessage message))
            {
                Write(message.MsgType, seq, message.SendingTimeNanos, message.Body, possDup: false, origSendingTimeNanos: 0, _clock.MonotonicNanos);
            }
            else
            {
                // Not expected (the reset kept only what it could read back), but a report not sent is a report lost.
                QueuedMessagesLost++;
            }
        }

        _store.MarkDelivered(first, last);
    }
}
