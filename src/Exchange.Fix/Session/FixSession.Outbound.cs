using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;

namespace Exchange.Fix.Session;

/// <summary>Everything the session sends: application messages, admin replies and resends.</summary>
public sealed partial class FixSession
{
    /// <summary>Longest client-supplied id the session echoes (TestReqID); longer ones are rejected, never truncated.</summary>
    private const int MaxEchoedIdLength = 128;

    /// <summary>Longest Text (58) on a Logout; longer caller texts are cut so the body buffer cannot overflow.</summary>
    private const int MaxLogoutTextLength = 256;

    // Admin bodies are written with the codec's FixMessageWriter (without Begin it is a body writer) and are bounded
    // by construction: fixed texts, integers, an echoed MsgType of at most 16 bytes and an
    // echoed TestReqID of at most MaxEchoedIdLength bytes.
    private readonly byte[] _body = new byte[512];
    private readonly byte[] _testReqId = new byte[32];
    private long _testRequestCounter;

    /// <summary>
    /// Sends an application message (ExecutionReport, OrderCancelReject, BusinessMessageReject...): assigns the next
    /// MsgSeqNum, persists the body for resends, and writes it to the connection when logged on. When not logged on
    /// the message is stored queued: the client recovers it with a ResendRequest after its next Logon, or gets it as a
    /// new message right after the reply to a Logon with ResetSeqNumFlag=Y (<see cref="DeliverQueued"/>).
    /// </summary>
    /// <param name="msgType">MsgType (35) value, e.g. "8"u8.</param>
    /// <param name="body">The fields after the standard header as tag=value&lt;SOH&gt;, without CheckSum.</param>
    /// <param name="eventId">
    /// For a report of the venue's engine, its event id (above 0, increasing): stored with the message as the store's
    /// <see cref="ISessionStore.LastEventId"/>. 0 for anything else.
    /// </param>
    /// <returns>The MsgSeqNum assigned.</returns>
    public int SendApplication(ReadOnlySpan<byte> msgType, ReadOnlySpan<byte> body, long eventId = 0)
    {
        int seq = _store.NextSenderSeqNum;
        ClockReading now = _clock.Now; // one read for the SendingTime and the heartbeat timer

        // Persist before writing: after a crash a number may be missing from the wire (recoverable by resend/gap fill),
        // but is never reused for a different message.
        bool live = _state == SessionState.Active;
        _store.StoreOutbound(seq, msgType, now.UtcNanos, body, eventId, queued: !live);
        if (live)
        {
            Write(msgType, seq, now.UtcNanos, body, possDup: false, origSendingTimeNanos: 0, now.MonotonicNanos);
        }

        return seq;
    }

    /// <summary>
    /// Sends an application message that is numbered but not kept for resends (market data: stale on arrival after a
    /// reconnect). Nothing is sent, and no number spent, unless the session is logged on; a later ResendRequest
    /// covering the number is answered with SequenceReset-GapFill, as FIX allows for such messages.
    /// </summary>
    /// <returns>False when the session is not logged on and the message was dropped.</returns>
    public bool TrySendTransient(ReadOnlySpan<byte> msgType, ReadOnlySpan<byte> body)
    {
        if (_state != SessionState.Active)
        {
            return false;
        }

        SendAdmin(msgType, body);
        return true;
    }

    /// <summary>
    /// Sends a session-level Reject (35=3) for a delivered message whose number is already consumed, e.g. an
    /// application message the gateway's mapping found structurally wrong (missing or malformed field).
    /// </summary>
    public void Reject(in InboundMessage message, SessionRejectReason reason, int refTagId, ReadOnlySpan<byte> text) =>
        SendReject(message, reason, refTagId, text.IsEmpty ? RejectTexts.For(reason) : text);

    private void SendAdmin(ReadOnlySpan<byte> msgType, ReadOnlySpan<byte> body)
    {
        if (_transport is null)
        {
            return;
        }

        int seq = _store.NextSenderSeqNum;
        _store.SetNextSenderSeqNum(seq + 1);
        Write(msgType, seq, _clock.UtcNowNanos, body, possDup: false, origSendingTimeNanos: 0, _clock.MonotonicNanos);
    }

    /// <param name="writtenAtMono">Now on the monotonic clock: the outbound silence the heartbeat timer measures starts here.</param>
    private void Write(ReadOnlySpan<byte> msgType, int seq, long sendingTimeNanos, ReadOnlySpan<byte> body, bool possDup, long origSendingTimeNanos, long writtenAtMono)
    {
        ISessionTransport transport = _transport!;
        var header = new OutboundHeader
        {
            MsgType = msgType,
            SenderCompID = _config.SenderCompIDBytes,
            TargetCompID = _config.TargetCompIDBytes,
            MsgSeqNum = seq,
            SendingTimeNanos = sendingTimeNanos,
            PossDupFlag = possDup,
            OrigSendingTimeNanos = origSendingTimeNanos,
        };
        _encoder.Encode(header, body, transport.Output);
        transport.MessageWritten();
        _lastSentMono = writtenAtMono;
    }

    private void SendLogon(int heartBtInt, bool resetSeqNum)
    {
        var body = new FixMessageWriter(_body);
        body.AddInt(98, 0);
        body.AddInt(108, heartBtInt);
        if (!resetSeqNum)
        {
            SendAdmin("A"u8, _body.AsSpan(0, body.Length));
            return;
        }

        // The store's reset kept this number free and numbered the queued messages after it.
        body.AddChar(141, (byte)'Y');
        Write("A"u8, ResetLogonSeqNum, _clock.UtcNowNanos, _body.AsSpan(0, body.Length), possDup: false, origSendingTimeNanos: 0, _clock.MonotonicNanos);
        DeliverQueued();
    }

    private void SendHeartbeat(ReadOnlySpan<byte> testReqId)
    {
        var body = new FixMessageWriter(_body);
        if (!testReqId.IsEmpty)
        {
            body.AddSpan(112, testReqId);
        }

        SendAdmin("0"u8, _body.AsSpan(0, body.Length));
    }

    private void SendTestRequest()
    {
        "TEST"u8.CopyTo(_testReqId);
        int idLength = 4 + FixInt.Format(++_testRequestCounter, _testReqId.AsSpan(4));
        var body = new FixMessageWriter(_body);
        body.AddSpan(112, _testReqId.AsSpan(0, idLength));
        SendAdmin("1"u8, _body.AsSpan(0, body.Length));
    }

    private void SendResendRequest(int begin, int end)
    {
        var body = new FixMessageWriter(_body);
        body.AddInt(7, begin);
        body.AddInt(16, end);
        SendAdmin("2"u8, _body.AsSpan(0, body.Length));
    }

    private void SendReject(in InboundMessage m, SessionRejectReason reason, int refTagId, ReadOnlySpan<byte> text)
    {
        var body = new FixMessageWriter(_body);
        body.AddInt(45, m.MsgSeqNum);
        if (refTagId > 0)
        {
            body.AddInt(371, refTagId);
        }

        if (!m.MsgType.IsEmpty && m.MsgType.Length <= 16)
        {
            body.AddSpan(372, m.MsgType);
        }

        body.AddInt(373, (int)reason);
        body.AddSpan(58, text);
        SendAdmin("3"u8, _body.AsSpan(0, body.Length));
        Volatile.Write(ref _rejectsSent, _rejectsSent + 1);
    }

    /// <summary>
    /// BusinessMessageReject (j) is an application message: it goes through <see cref="SendApplication"/>, so it is
    /// stored and resent like an ExecutionReport.
    /// </summary>
    private void SendBusinessMessageReject(in InboundMessage m)
    {
        var body = new FixMessageWriter(_body);
        body.AddInt(45, m.MsgSeqNum);
        if (!m.MsgType.IsEmpty && m.MsgType.Length <= 16)
        {
            body.AddSpan(372, m.MsgType);
        }

        body.AddInt(380, 3); // Unsupported Message Type
        body.AddSpan(58, "Unsupported Message Type"u8);
        SendApplication("j"u8, _body.AsSpan(0, body.Length));
        Volatile.Write(ref _unsupportedTypeRejectsSent, _unsupportedTypeRejectsSent + 1);
    }

    private void SendLogout(ReadOnlySpan<byte> text)
    {
        var body = new FixMessageWriter(_body);
        if (!text.IsEmpty)
        {
            // Caller texts are short fixed phrases; the cut only guards the fixed body buffer.
            body.AddSpan(58, text[..Math.Min(text.Length, MaxLogoutTextLength)]);
        }

        SendAdmin("5"u8, _body.AsSpan(0, body.Length));
    }

    private void LogoutTooLow(int expected, int received)
    {
        Span<byte> text = stackalloc byte[96];
        int n = Append(text, 0, "MsgSeqNum too low, expecting "u8);
        n += FixInt.Format(expected, text[n..]);
        n = Append(text, n, " but received "u8);
        n += FixInt.Format(received, text[n..]);
        var body = new FixMessageWriter(_body);
        body.AddSpan(58, text[..n]);
        SendAdmin("5"u8, _body.AsSpan(0, body.Length));
        Unbind(DisconnectReason.MsgSeqNumTooLow, closeTransport: true);
    }

    /// <summary>
    /// Answers a ResendRequest: stored application messages go out again under their original numbers with
    /// PossDupFlag=Y and OrigSendingTime; each run of numbers with nothing stored (admin messages) becomes one
    /// SequenceReset-GapFill. EndSeqNo 0 (or beyond our last) means up to the last number sent.
    /// </summary>
    private void ServeResend(in InboundMessage m)
    {
        int last = _store.NextSenderSeqNum - 1;
        int begin = m.BeginSeqNo;
        int end = m.EndSeqNo <= 0 || m.EndSeqNo > last ? last : m.EndSeqNo;
        if (begin < 1 || begin > end)
        {
            return;
        }

        long now = _clock.UtcNowNanos;
        int gapStart = 0;
        for (int seq = begin; seq <= end; seq++)
        {
            if (_store.TryGetOutbound(seq, out StoredMessage stored))
            {
                if (gapStart != 0)
                {
                    SendGapFill(gapStart, seq, now);
                    gapStart = 0;
                }

                // Encoded before the next store call: the stored spans are only valid until then.
                Write(stored.MsgType, seq, now, stored.Body, possDup: true, origSendingTimeNanos: stored.SendingTimeNanos, _clock.MonotonicNanos);
            }
            else
            {
                if (gapStart == 0)
                {
                    gapStart = seq;
                }

                if (_store.IsQueued(seq))
                {
                    QueuedMessagesLost++;
                }
            }
        }

        if (gapStart != 0)
        {
            SendGapFill(gapStart, end + 1, now);
        }

        // Whatever was queued in the range has now been written to the client: a later reset must not send it again.
        _store.MarkDelivered(begin, end);
    }

    private void SendGapFill(int seq, int newSeqNo, long now)
    {
        var body = new FixMessageWriter(_body);
        body.AddChar(123, (byte)'Y');
        body.AddInt(36, newSeqNo);
        Write("4"u8, seq, now, _body.AsSpan(0, body.Length), possDup: true, origSendingTimeNanos: now, _clock.MonotonicNanos);
    }

    private static int Append(Span<byte> destination, int at, ReadOnlySpan<byte> text)
    {
        text.CopyTo(destination[at..]);
        return at + text.Length;
    }
}
