using Exchange.Core.Events;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

// Start-up recovery of reports: the journal can hold a command whose reports never reached the session store (the
// venue died between journalling it and the sender storing them). The host replays the journal and hands every event
// here; each session stores, as new messages, exactly the reports after the last one its store holds. No client is
// logged on yet, so they are stored queued: a reset Logon keeps and sends them, a plain one leaves them to a resend.
public sealed partial class FixGateway
{
    public bool RecoverEvent(in EngineEvent engineEvent)
    {
        if ((uint)engineEvent.OwnerId >= (uint)_sessions.Length)
        {
            return false;
        }

        GatewaySession gs = _sessions[engineEvent.OwnerId];
        long stored = gs.Session.LastEventId;

        // Event ids rise strictly through the journal and the sender stores each session's reports in that order, so
        // "after the last stored id" is exactly "never stored". A store that cannot tell gets nothing (see CompleteRecovery).
        if (stored == ISessionStore.UnknownEventId || engineEvent.EventId <= stored)
        {
            return false;
        }

        int length = EncodeEvent(in engineEvent, out ReadOnlySpan<byte> msgType);
        if (length < 0)
        {
            return false;
        }

        int seq = gs.Session.NextSenderSeqNum;
        Send(gs, msgType, _eventBody.AsSpan(0, length), transient: false, engineEvent.EventId);
        if (gs.RecoveredReports++ == 0)
        {
            gs.FirstRecoveredSeqNum = seq;
        }

        return true;
    }

    public long CompleteRecovery(long lastEventId)
    {
        long highest = lastEventId;
        foreach (GatewaySession gs in _sessions)
        {
            lock (gs.Lock)
            {
                FixSession session = gs.Session;
                if (gs.RecoveredReports > 0)
                {
                    _services.Log.Warn(
                        $"{gs.Name}: {gs.RecoveredReports} reports in the journal had not reached the session store (the venue stopped in between); "
                        + $"queued as messages {gs.FirstRecoveredSeqNum}..{gs.FirstRecoveredSeqNum + gs.RecoveredReports - 1}, for the client's ResendRequest after its Logon "
                        + "(or sent as new messages after a Logon with ResetSeqNumFlag=Y)");
                }

                long stored = session.LastEventId;
                if (stored == ISessionStore.UnknownEventId)
                {
                    // A new store, one kept in memory, or one written before stores kept the id: what it holds cannot be
                    // told apart from what it lacks, so nothing is re-sent; from here on the store counts.
                    session.SetLastEventId(lastEventId);
                    if (lastEventId > 0)
                    {
                        _services.Log.Info($"{gs.Name}: the session store does not record which reports it holds; reports of journal events up to {lastEventId} are not re-sent");
                    }
                }
                else if (stored > lastEventId)
                {
                    // The store has reports of events the journal no longer has: the journal was replaced or lost its
                    // tail. The host numbers new events above the highest such id, so the store keeps its position.
                    highest = Math.Max(highest, stored);
                    _services.Log.Warn($"{gs.Name}: the session store holds reports up to event {stored} but the journal ends at event {lastEventId} (the journal lost records); new events are numbered above {stored}");
                }
            }
        }

        return highest;
    }
}
