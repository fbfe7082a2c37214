using System.Runtime.CompilerServices;
using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;

namespace Exchange.Fix.Session;

/// <summary>Inbound sequencing: in-order processing, gap detection and queueing, SequenceReset.</summary>
public sealed partial class FixSession
{
    private void Sequence(in InboundMessage m)
    {
        // Reset mode is the one message whose own MsgSeqNum does not sequence it (only a rejected one spends it).
        if (m.Type == SessionMsgType.SequenceReset && !m.GapFillFlag)
        {
            OnSequenceResetReset(m);
            return;
        }

        // A Logon with ResetSeqNumFlag=Y on a live session starts both sides again from 1 (FIX 4.4 allows it, for
        // example for a daily reset of a session kept up across days); its own MsgSeqNum counts from the reset.
        if (m.Type == SessionMsgType.Logon && m.ResetSeqNumFlag && _state == SessionState.Active)
        {
            OnResetLogon(m);
            return;
        }

        int expected = _store.NextTargetSeqNum;
        if (m.MsgSeqNum < expected)
        {
            if (!m.PossDupFlag)
            {
                LogoutTooLow(expected, m.MsgSeqNum);
            }

            // PossDup of something already processed: ignore.
            return;
        }

        if (m.MsgSeqNum > expected)
        {
            switch (m.Type)
            {
                case SessionMsgType.ResendRequest when IsServableResendRequest(m):
                    // Served at once so both sides can recover at the same time; its number waits in the queue. A
                    // malformed one is not served: it waits like any other message, and is rejected in its turn.
                    ServeResend(m);
                    Enqueue(m, alreadyHandled: true);
                    break;
                case SessionMsgType.Logout when _state == SessionState.LogoutSent:
                    // The reply to our own Logout: the session is ending anyway, so a gap below it changes nothing.
                    OnLogout();
                    return;
                case SessionMsgType.Logout:
                    // The client waits for our Logout, and FIX lets us recover the gap first: the missing messages may
                    // be orders. Answered once the gap fills (in its turn, or when a gap fill jumps past it: see
                    // DrainQueued), or by the timer after LogoutTimeout.
                    Enqueue(m, alreadyHandled: false);
                    if (!_clientLogoutPending)
                    {
                        _clientLogoutPending = true;
                        _clientLogoutSeq = m.MsgSeqNum;
                        _clientLogoutAtMono = _clock.MonotonicNanos;
                    }

                    break;
                default:
                    Enqueue(m, alreadyHandled: false);
                    break;
            }

            if (EndsRequestedRange(m) && _store.NextTargetSeqNum > _resendRequestedFrom)
            {
                // The end of the range we asked for came, yet a gap remains below it: the replay lost a message
                // (garbled, or skipped by the client). Ask again from the expected number instead of waiting for a
                // replay that is over. Only after a replay that made progress, so a client that never fills a number is
                // not asked again at the pace of its replays (the timer asks again after a while without progress).
                _resendRequestedUpTo = 0;
            }

            RequestResendIfNeeded(m.MsgSeqNum);
            return;
        }

        Process(m);
        DrainQueue();
    }

    /// <summary>
    /// An in-session Logon with ResetSeqNumFlag=Y: both sequence numbers and the stored outbound messages are reset,
    /// anything queued behind a gap is dropped (it was numbered before the reset), and the venue answers with a Logon
    /// carrying 141=Y and MsgSeqNum 1, followed by any outbound messages the client never got (<see cref="DeliverQueued"/>).
    /// A reset Logon numbered above 1 is accepted and the gap below it requested, as on a first Logon.
    /// </summary>
    private void OnResetLogon(in InboundMessage m)
    {
        if (!AcceptLogonFields(m, out int heartBtInt))
        {
            return;
        }

        ResetNumbering();
        _queue.Clear();
        _resendRequestedUpTo = 0;
        _clientLogoutPending = false;
        _heartBtInt = heartBtInt;
        SendLogon(heartBtInt, resetSeqNum: true);
        if (m.MsgSeqNum > _store.NextTargetSeqNum)
        {
            Enqueue(m, alreadyHandled: true);
            RequestResendIfNeeded(m.MsgSeqNum);
        }
        else
        {
            AdvanceTarget(m.MsgSeqNum + 1);
        }
    }

    /// <summary>Handles a message whose MsgSeqNum is exactly the expected one, and consumes that number.</summary>
    private void Process(in InboundMessage m)
    {
        int seq = m.MsgSeqNum;
        SessionRejectReason? problem = m.ParseReject;
        int problemTag = m.ParseRejectTag;
        if (problem is null && m.SendingTimeNanos is null)
        {
            problem = SessionRejectReason.RequiredTagMissing;
            problemTag = 52;
        }

        if (problem is SessionRejectReason reason)
        {
            AdvanceTarget(seq + 1);
            SendReject(m, reason, problemTag, RejectTexts.For(reason));
            return;
        }

        switch (m.Type)
        {
            case SessionMsgType.Heartbeat:
            case SessionMsgType.Reject:
                AdvanceTarget(seq + 1);
                break;
            case SessionMsgType.TestRequest:
                AdvanceTarget(seq + 1);
                if (m.TestReqID.IsEmpty)
                {
                    SendReject(m, SessionRejectReason.RequiredTagMissing, 112, "Required tag missing"u8);
                }
                else if (m.TestReqID.Length > MaxEchoedIdLength)
                {
                    SendReject(m, SessionRejectReason.ValueIsIncorrect, 112, "TestReqID(112) too long"u8);
                }
                else
                {
                    SendHeartbeat(m.TestReqID);
                }

                break;
            case SessionMsgType.ResendRequest:
                AdvanceTarget(seq + 1);
                if (FindResendRangeFault(m, out int faultTag, out ReadOnlySpan<byte> fault))
                {
                    SendReject(m, SessionRejectReason.ValueIsIncorrect, faultTag, fault);
                }
                else
                {
                    ServeResend(m);
                }

                break;
            case SessionMsgType.SequenceReset:
                // Gap-fill mode; sequencing was already checked like any other message.
                if (m.NewSeqNo > seq)
                {
                    AdvanceTarget(m.NewSeqNo);
                }
                else
                {
                    AdvanceTarget(seq + 1);
                    SendReject(m, SessionRejectReason.ValueIsIncorrect, 36, "NewSeqNo(36) must be greater than MsgSeqNum"u8);
                }

                break;
            case SessionMsgType.Logout:
                AdvanceTarget(seq + 1);
                OnLogout();
                break;
            case SessionMsgType.Logon:
                AdvanceTarget(seq + 1);
                LogoutAndDisconnect("Logon received on an active session"u8, DisconnectReason.UnexpectedLogon);
                break;
            case SessionMsgType.Application:
                // Consumed before delivery, so the handler may send (and so see consistent numbers).
                AdvanceTarget(seq + 1);
                _application?.OnApplicationMessage(this, m);
                break;
            case SessionMsgType.UnsupportedApplication:
                AdvanceTarget(seq + 1);
                SendBusinessMessageReject(m);
                break;
            case SessionMsgType.BusinessMessageReject:
                // The client refused one of our messages: nothing to act on, and never answered (see SessionMsgType).
                AdvanceTarget(seq + 1);
                break;
            default:
                AdvanceTarget(seq + 1);
                SendReject(m, SessionRejectReason.InvalidMsgType, 35, "Invalid MsgType"u8);
                break;
        }
    }

    private void OnSequenceResetReset(in InboundMessage m)
    {
        int expected = _store.NextTargetSeqNum;
        if (m.ParseReject is SessionRejectReason reason)
        {
            // A field the validator refused (an unreadable GapFillFlag lands here too, as it does not read as Y) means
            // the message's intent is unknown: it is rejected and moves nothing. Numbered as expected, it spends its
            // number like any rejected message.
            SendReject(m, reason, m.ParseRejectTag, RejectTexts.For(reason));
            if (m.MsgSeqNum == expected)
            {
                AdvanceTarget(expected + 1);
                DrainQueue();
            }

            return;
        }

        if (m.NewSeqNo <= 0)
        {
            SendReject(m, SessionRejectReason.RequiredTagMissing, 36, "Required tag missing"u8);
            return;
        }

        if (m.NewSeqNo < expected)
        {
            SendReject(m, SessionRejectReason.ValueIsIncorrect, 36, "NewSeqNo(36) is lower than the expected MsgSeqNum"u8);
            return;
        }

        if (m.NewSeqNo > expected)
        {
            AdvanceTarget(m.NewSeqNo);
        }

        DrainQueue();
    }

    private void OnLogout()
    {
        if (_state == SessionState.LogoutSent)
        {
            Unbind(DisconnectReason.LogoutCompleted, closeTransport: true);
            return;
        }

        LogoutAndDisconnect(default, DisconnectReason.LogoutCompleted);
    }

    /// <summary>
    /// After a message was rejected by a header check: its number is spent if it was the expected one; if it was ahead,
    /// the gap below it still needs recovering.
    /// </summary>
    private void ConsumeRejected(in InboundMessage m)
    {
        int expected = _store.NextTargetSeqNum;
        if (m.MsgSeqNum == expected)
        {
            AdvanceTarget(expected + 1);
            DrainQueue();
        }
        else if (m.MsgSeqNum > expected && _state != SessionState.Disconnected)
        {
            RequestResendIfNeeded(m.MsgSeqNum);
        }
    }

    /// <summary>
    /// A rejected message followed by Logout: spend its number if it was the expected one, but do not release queued
    /// messages into a session that is about to close.
    /// </summary>
    private void ConsumeBeforeLogout(in InboundMessage m)
    {
        if (m.MsgSeqNum == _store.NextTargetSeqNum)
        {
            AdvanceTarget(m.MsgSeqNum + 1);
        }
    }

    private void AdvanceTarget(int next) => _store.SetNextTargetSeqNum(next);

    /// <summary>
    /// True when <paramref name="m"/> ends the range of our outstanding ResendRequest: it is the range's last number, or
    /// a gap fill that reaches past it (a replay often ends with one).
    /// </summary>
    private bool EndsRequestedRange(in InboundMessage m) =>
        m.MsgSeqNum == _resendRequestedUpTo ||
        (m.Type == SessionMsgType.SequenceReset && m.GapFillFlag && m.MsgSeqNum <= _resendRequestedUpTo && m.NewSeqNo > _resendRequestedUpTo);

    /// <summary>A ResendRequest that <see cref="Process"/> would serve now rather than reject.</summary>
    private bool IsServableResendRequest(in InboundMessage m) =>
        m.ParseReject is null && m.SendingTimeNanos is not null && !FindResendRangeFault(m, out _, out _);

    /// <summary>
    /// What is wrong with a ResendRequest's range, as its Reject names it (RefTagID and Text); false when the range can
    /// be served now. The one place these rules live: <see cref="Process"/> rejects by them, and
    /// <see cref="IsServableResendRequest"/> keeps a request ahead of a gap from being served early by them.
    /// </summary>
    private bool FindResendRangeFault(in InboundMessage m, out int tag, out ReadOnlySpan<byte> text)
    {
        if (m.BeginSeqNo <= 0)
        {
            // Present (the dictionary refuses a ResendRequest without it) but not a sequence number.
            tag = 7;
            text = "BeginSeqNo(7) must be at least 1"u8;
        }
        else if (m.EndSeqNo < 0)
        {
            // 0 means "everything after BeginSeqNo"; a negative number means nothing and must not read as 0.
            tag = 16;
            text = "EndSeqNo(16) must be 0 or a sequence number"u8;
        }
        else if (m.EndSeqNo > 0 && m.EndSeqNo < m.BeginSeqNo)
        {
            tag = 16;
            text = "EndSeqNo(16) is lower than BeginSeqNo(7)"u8;
        }
        else if (m.BeginSeqNo >= _store.NextSenderSeqNum)
        {
            // Numbers we never sent: silence would leave the client waiting for a replay that cannot come.
            tag = 7;
            text = "BeginSeqNo(7) is beyond the last MsgSeqNum sent"u8;
        }
        else
        {
            tag = 0;
            text = default;
            return false;
        }

        return true;
    }

    private void Enqueue(in InboundMessage m, bool alreadyHandled)
    {
        if (_queue.Count < _config.MaxQueuedMessages && !_queue.ContainsKey(m.MsgSeqNum))
        {
            _queue.Add(m.MsgSeqNum, new QueuedInbound(m, alreadyHandled));
        }
    }

    /// <summary>Processes queued messages that have become in-order, then asks for whatever gap remains.</summary>
    /// <remarks>
    /// The empty check is all an in-sequence message pays: the draining has its own frame, because the JIT zeroes a
    /// method's struct locals in its prologue, before any early return (a 64-byte store per message, a hot spot in a
    /// profile of the session step).
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void DrainQueue()
    {
        if (_queue.Count != 0)
        {
            DrainQueued();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void DrainQueued()
    {
        while (IsLoggedOn && _queue.Remove(_store.NextTargetSeqNum, out QueuedInbound? queued))
        {
            if (queued.AlreadyHandled)
            {
                AdvanceTarget(queued.MsgSeqNum + 1);
            }
            else
            {
                Process(queued.ToMessage());
            }
        }

        if (!IsLoggedOn)
        {
            return;
        }

        if (_clientLogoutPending && _store.NextTargetSeqNum > _clientLogoutSeq)
        {
            // A gap fill or reset jumped past the client's queued Logout: the gap below it is closed, so answer it.
            OnLogout();
            return;
        }

        // A gap fill or reset may have jumped past queued numbers; those are duplicates now.
        int expected = _store.NextTargetSeqNum;
        int lowestQueued = int.MaxValue;
        foreach (int seq in _queue.Keys)
        {
            if (seq < expected)
            {
                _queue.Remove(seq);
            }
            else
            {
                lowestQueued = Math.Min(lowestQueued, seq);
            }
        }

        if (lowestQueued != int.MaxValue)
        {
            RequestResendIfNeeded(lowestQueued);
        }
    }

    /// <summary>Sends a ResendRequest for the gap below <paramref name="receivedSeq"/> unless one is outstanding.</summary>
    private void RequestResendIfNeeded(int receivedSeq)
    {
        int begin = _store.NextTargetSeqNum;
        if (_resendRequestedUpTo >= begin)
        {
            return;
        }

        int chunk = _config.ResendRequestChunkSize;
        int end = chunk <= 0 ? 0 : Math.Min(begin + chunk - 1, receivedSeq - 1);
        SendResendRequest(begin, end);
        _resendRequestedUpTo = end == 0 ? receivedSeq - 1 : end;
        _resendRequestedFrom = begin;
        _resendWatchSeq = begin;
        _resendWatchMono = _clock.MonotonicNanos;
    }

    /// <summary>
    /// Timer side of gap recovery: when an outstanding ResendRequest has not moved the expected number for
    /// <paramref name="patience"/> (the replay lost the message that ends our range, or never came), it is sent again
    /// for the gap below the lowest queued message. Progress is noticed when the timer runs, and each restarts the
    /// wait, so a long replay is never cut short.
    /// </summary>
    private void CheckResendProgress(long now, long patience)
    {
        int expected = _store.NextTargetSeqNum;
        if (_resendRequestedUpTo < expected)
        {
            return;
        }

        if (expected != _resendWatchSeq)
        {
            _resendWatchSeq = expected;
            _resendWatchMono = now;
            return;
        }

        if (now - _resendWatchMono < patience)
        {
            return;
        }

        int lowestQueued = int.MaxValue;
        foreach (int seq in _queue.Keys)
        {
            lowestQueued = Math.Min(lowestQueued, seq);
        }

        int upTo = lowestQueued != int.MaxValue ? lowestQueued : _resendRequestedUpTo + 1;
        _resendRequestedUpTo = 0;
        RequestResendIfNeeded(upTo);
    }

    private bool IsLoggedOn => _state is SessionState.Active or SessionState.LogoutSent;
}
