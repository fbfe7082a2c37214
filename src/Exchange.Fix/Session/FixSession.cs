using System.Runtime.CompilerServices;
using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;

namespace Exchange.Fix.Session;

/// <summary>
/// The acceptor side of one FIX 4.4 session: logon, sequencing, gap recovery, admin replies, heartbeats and logout,
/// over a codec-agnostic boundary (<see cref="InboundMessage"/> in, <see cref="IFixEncoder"/> +
/// <see cref="ISessionTransport"/> out). The object outlives connections: its <see cref="ISessionStore"/> keeps the
/// sequence numbers and sent application messages, so a reconnect (or a restarted venue) resumes the session.
/// </summary>
/// <remarks>
/// Threading: not thread-safe. Every call (<see cref="OnMessage(in InboundMessage)"/>, <see cref="Poll"/>, <see cref="SendApplication"/>,
/// <see cref="Logout"/>, <see cref="OnTransportClosed"/>) must be serialised by the caller, e.g. by running them all on
/// the connection's I/O loop. Only <see cref="State"/> may be read from another thread (the registry does, to refuse
/// a second logon). Once the session has called <see cref="ISessionTransport.Disconnect"/> (or the owner called
/// <see cref="OnTransportClosed"/>), the old connection must stop calling the session: the next connection may
/// already be bound to it. Time: read only through the injected <see cref="IClock"/>; timers fire only inside
/// <see cref="Poll"/>, so tests drive them deterministically. Allocation: none per in-order message; messages queued
/// behind a gap are copied.
/// </remarks>
public sealed partial class FixSession
{
    private const long NanosPerSecond = 1_000_000_000;

    /// <summary>
    /// The longest HeartBtInt (108) a Logon may ask for: one day. Longer intervals mean no liveness checking at all
    /// (0 says that plainly), and the timers' arithmetic in nanoseconds must not overflow.
    /// </summary>
    public const int MaxHeartBtInt = 86_400;

    private readonly SessionConfig _config;
    private readonly ISessionStore _store;
    private readonly IFixEncoder _encoder;
    private readonly IClock _clock;
    private readonly long _sendingTimeToleranceNanos;
    private readonly Dictionary<int, QueuedInbound> _queue = [];

    private ISessionTransport? _transport;
    private ISessionApplication? _application;
    private volatile SessionState _state;
    private int _heartBtInt;
    private long _boundAtMono;
    private long _lastReceivedMono;
    private long _lastSentMono;
    private long _logoutSentAtMono;
    private bool _testRequestOutstanding;
    private long _testRequestSentAtMono;

    /// <summary>Highest inbound seq covered by our outstanding ResendRequest; below NextTargetSeqNum means none.</summary>
    private int _resendRequestedUpTo;

    /// <summary>BeginSeqNo of our last ResendRequest.</summary>
    private int _resendRequestedFrom;

    /// <summary>The client's Logout came ahead of a gap and waits for it to fill (since <see cref="_clientLogoutAtMono"/>).</summary>
    private bool _clientLogoutPending;
    private int _clientLogoutSeq;
    private long _clientLogoutAtMono;

    /// <summary>Written under the session's lock, read by metrics on any thread (see <see cref="RejectsSent"/>).</summary>
    private long _rejectsSent;
    private long _unsupportedTypeRejectsSent;

    /// <summary>NextTargetSeqNum when an outstanding resend was last seen to progress, and when (monotonic).</summary>
    private int _resendWatchSeq;
    private long _resendWatchMono;

    public FixSession(SessionConfig config, ISessionStore store, IFixEncoder encoder, IClock clock)
    {
        ArgumentNullException.ThrowIfNull(config);
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(encoder);
        ArgumentNullException.ThrowIfNull(clock);
        _config = config;
        _store = store;
        _encoder = encoder;
        _clock = clock;
        _sendingTimeToleranceNanos = config.SendingTimeTolerance.Ticks * 100;
    }

    /// <summary><see cref="ISessionStore.NeedsPrepare"/> of this session's store (see the rules there).</summary>
    internal bool StoreNeedsPrepare => _store.NeedsPrepare;

    /// <summary><see cref="ISessionStore.PrepareNextRecord"/> of this session's store; under the session's lock.</summary>
    internal bool PrepareStore() => _store.PrepareNextRecord();

    public SessionConfig Config => _config;

    public SessionState State => _state;

    /// <summary>Session-level Rejects (35=3) this session sent since the venue started, over all its logons. Any thread.</summary>
    public long RejectsSent => Volatile.Read(ref _rejectsSent);

    /// <summary>BusinessMessageRejects (35=j) this session sent for message types the venue does not support. Any thread.</summary>
    public long UnsupportedTypeRejectsSent => Volatile.Read(ref _unsupportedTypeRejectsSent);

    public int NextSenderSeqNum => _store.NextSenderSeqNum;

    public int NextTargetSeqNum => _store.NextTargetSeqNum;

    /// <summary>The store's <see cref="ISessionStore.LastEventId"/>: the last engine report this session holds.</summary>
    public long LastEventId => _store.LastEventId;

    /// <summary>HeartBtInt (seconds) adopted from the client's Logon; 0 disables heartbeats.</summary>
    public int HeartBtInt => _heartBtInt;

    public DisconnectReason LastDisconnectReason { get; private set; }

    /// <summary>Inbound messages waiting behind a sequence gap.</summary>
    public int QueuedCount => _queue.Count;

    /// <summary>
    /// Attaches a new connection; its first message must be a Logon. Call through <see cref="SessionRegistry"/>,
    /// which guarantees the session was not already bound.
    /// </summary>
    internal void Bind(ISessionTransport transport, ISessionApplication application)
    {
        if (_state != SessionState.Disconnected)
        {
            throw new InvalidOperationException("session already has a connection");
        }

        _transport = transport;
        _application = application;
        _boundAtMono = _clock.MonotonicNanos;
        LastDisconnectReason = DisconnectReason.None;
        _state = SessionState.AwaitingLogon;
    }

    /// <summary>Feeds one framed inbound message from the bound connection.</summary>
    public void OnMessage(in InboundMessage message) => OnMessage(message, _clock.Now);

    /// <summary>Feeds one framed inbound message, received at <paramref name="received"/>.</summary>
    /// <param name="received">
    /// This session's clock's <see cref="IClock.Now"/> read by the caller when the message arrived (the gateway reads
    /// it anyway for the order's receive time): the SendingTime accuracy check uses its wall time and the liveness
    /// timers its monotonic time, so a message costs one clock read, not three.
    /// </param>
    internal void OnMessage(in InboundMessage message, ClockReading received)
    {
        if (_state == SessionState.Disconnected)
        {
            return;
        }

        long mono = received.MonotonicNanos;
        long receivedUtcNanos = received.UtcNanos;
        if (_state == SessionState.AwaitingLogon)
        {
            OnFirstMessage(message, mono, receivedUtcNanos);
            return;
        }

        if (message.IsGarbled)
        {
            // FIX: a garbled message is ignored as if never received; it neither consumes a MsgSeqNum nor proves liveness.
            return;
        }

        _lastReceivedMono = mono;
        _testRequestOutstanding = false;
        if (message.WrongBeginString)
        {
            LogoutAndDisconnect("Incorrect BeginString"u8, DisconnectReason.WrongBeginString);
            return;
        }

        if (message.MsgSeqNum <= 0)
        {
            LogoutAndDisconnect("MsgSeqNum(34) missing"u8, DisconnectReason.MsgSeqNumMissing);
            return;
        }

        if (!ValidateHeader(message, receivedUtcNanos))
        {
            return;
        }

        Sequence(message);
    }

    /// <summary>Records <paramref name="eventId"/> as the last engine report this session holds, without a message.</summary>
    internal void SetLastEventId(long eventId) => _store.SetLastEventId(eventId);

    /// <summary>The connection closed underneath the session (peer hung up, socket error).</summary>
    public void OnTransportClosed()
    {
        if (_state != SessionState.Disconnected)
        {
            Unbind(DisconnectReason.PeerClosed, closeTransport: false);
        }
    }

    /// <summary>
    /// Venue-initiated logout (e.g. shutdown): sends Logout and waits up to <see cref="SessionConfig.LogoutTimeout"/>
    /// (enforced by <see cref="Poll"/>) for the client's Logout before disconnecting.
    /// </summary>
    public void Logout(ReadOnlySpan<byte> text)
    {
        switch (_state)
        {
            case SessionState.Active:
                SendLogout(text);
                _logoutSentAtMono = _clock.MonotonicNanos;
                _state = SessionState.LogoutSent;
                break;
            case SessionState.AwaitingLogon:
                Unbind(DisconnectReason.LogoutCompleted, closeTransport: true);
                break;
        }
    }

    private void OnFirstMessage(in InboundMessage m, long mono, long nowUtc)
    {
        // Garbage, a non-Logon or a Logon for CompIDs this session does not serve: close without a reply, as QuickFIX
        // acceptors do. We cannot trust who is talking, and any reply would spend one of the session's MsgSeqNums.
        if (m.IsGarbled || m.WrongBeginString || m.Type != SessionMsgType.Logon)
        {
            Unbind(DisconnectReason.FirstMessageNotLogon, closeTransport: true);
            return;
        }

        if (!CompIdsMatch(m, out _))
        {
            Unbind(DisconnectReason.UnknownSession, closeTransport: true);
            return;
        }

        // From here the peer is a known counterparty: a bad Logon gets a Logout naming the problem, then disconnect.
        _lastReceivedMono = mono;
        if (m.MsgSeqNum <= 0)
        {
            LogoutAndDisconnect("MsgSeqNum(34) missing"u8, DisconnectReason.MsgSeqNumMissing);
            return;
        }

        if (!AcceptLogonFields(m, out int heartBtInt))
        {
            return;
        }

        if (m.SendingTimeNanos is null || !SendingTimeAccurate(m, nowUtc))
        {
            LogoutAndDisconnect("SendingTime accuracy problem"u8, DisconnectReason.InvalidLogon);
            return;
        }

        if (m.ResetSeqNumFlag)
        {
            ResetNumbering();
        }

        int expected = _store.NextTargetSeqNum;
        if (m.MsgSeqNum < expected)
        {
            LogoutTooLow(expected, m.MsgSeqNum);
            return;
        }

        _heartBtInt = heartBtInt;
        _state = SessionState.Active;
        SendLogon(heartBtInt, m.ResetSeqNumFlag);
        if (m.MsgSeqNum > expected)
        {
            // The Logon is accepted but its number stays open until the gap below it is resent.
            Enqueue(m, alreadyHandled: true);
            RequestResendIfNeeded(m.MsgSeqNum);
        }
        else
        {
            AdvanceTarget(m.MsgSeqNum + 1);
        }

        _application?.OnLogon(this);
    }

    /// <summary>
    /// The Logon fields a first Logon and an in-session reset Logon must both have right: no field-level problem, and
    /// HeartBtInt present and within 0..<see cref="MaxHeartBtInt"/>. On a problem the session logs out naming it,
    /// disconnects, and false is returned.
    /// </summary>
    private bool AcceptLogonFields(in InboundMessage m, out int heartBtInt)
    {
        heartBtInt = 0;
        if (m.ParseReject is SessionRejectReason reason)
        {
            // EncryptMethod other than 0 arrives as a bad value on 98 (see InboundMessages.WithAdminFields).
            LogoutAndDisconnect(
                m.ParseRejectTag == FixTags.EncryptMethod ? "EncryptMethod(98) not supported: only 0 (None)"u8 : RejectTexts.For(reason),
                DisconnectReason.InvalidLogon);
            return false;
        }

        if (m.HeartBtInt is not int value || value < 0 || value > MaxHeartBtInt)
        {
            LogoutAndDisconnect("HeartBtInt(108) missing or outside 0..86400"u8, DisconnectReason.InvalidLogon);
            return false;
        }

        heartBtInt = value;
        return true;
    }

    /// <summary>Checks that apply whatever the sequence number. False when the message was answered and handled.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool ValidateHeader(in InboundMessage m, long nowUtc)
    {
        if (!CompIdsMatch(m, out int badTag))
        {
            SendReject(m, SessionRejectReason.CompIdProblem, badTag, "CompID problem"u8);
            ConsumeBeforeLogout(m);
            LogoutAndDisconnect("CompID problem"u8, DisconnectReason.CompIdProblem);
            return false;
        }

        if (!SendingTimeAccurate(m, nowUtc))
        {
            SendReject(m, SessionRejectReason.SendingTimeAccuracyProblem, 52, "SendingTime accuracy problem"u8);
            ConsumeBeforeLogout(m);
            LogoutAndDisconnect("SendingTime accuracy problem"u8, DisconnectReason.SendingTimeAccuracyProblem);
            return false;
        }

        // SequenceReset is exempt from the OrigSendingTime rule (as in QuickFIX): GapFills are PossDup by nature.
        if (m.PossDupFlag && m.Type != SessionMsgType.SequenceReset)
        {
            if (m.OrigSendingTimeNanos is not long orig)
            {
                // Present but unreadable, the codec's verdict already names it (or an error before it, reported first).
                SessionRejectReason reason = m.ParseReject ?? SessionRejectReason.RequiredTagMissing;
                int tag = m.ParseReject is null ? FixTags.OrigSendingTime : m.ParseRejectTag;
                SendReject(m, reason, tag, RejectTexts.For(reason));
                ConsumeRejected(m);
                return false;
            }

            if (m.SendingTimeNanos is long sending && orig > sending)
            {
                SendReject(m, SessionRejectReason.SendingTimeAccuracyProblem, 122, "SendingTime accuracy problem"u8);
                ConsumeBeforeLogout(m);
                LogoutAndDisconnect("SendingTime accuracy problem"u8, DisconnectReason.SendingTimeAccuracyProblem);
                return false;
            }
        }

        return true;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool CompIdsMatch(in InboundMessage m, out int badTag)
    {
        if (!m.SenderCompID.SequenceEqual(_config.TargetCompIDBytes))
        {
            badTag = 49;
            return false;
        }

        if (!m.TargetCompID.SequenceEqual(_config.SenderCompIDBytes))
        {
            badTag = 56;
            return false;
        }

        badTag = 0;
        return true;
    }

    /// <summary>A missing SendingTime passes here; it is rejected as a missing required tag when processed in order.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool SendingTimeAccurate(in InboundMessage m, long nowUtc) =>
        m.SendingTimeNanos is not long sending || Math.Abs(nowUtc - sending) <= _sendingTimeToleranceNanos;

    private void Unbind(DisconnectReason reason, bool closeTransport)
    {
        ISessionTransport? transport = _transport;
        ISessionApplication? application = _application;
        _transport = null;
        _application = null;
        _queue.Clear();
        _resendRequestedUpTo = 0;
        _clientLogoutPending = false;
        _testRequestOutstanding = false;
        LastDisconnectReason = reason;
        try
        {
            _store.Flush();
        }
        finally
        {
            // Even when the flush throws (a store that failed a reset, an fsync error): the connection is gone either
            // way, and a session left Active without one would refuse every later Logon, never tell the application (no
            // cancel on disconnect), and throw from every timer poll. The exception still reaches the caller, which logs it.
            // Published last: once the registry sees Disconnected, the session is clean for the next connection.
            _state = SessionState.Disconnected;
            if (closeTransport)
            {
                transport?.Disconnect(reason);
            }

            application?.OnDisconnected(this, reason);
        }
    }

    private void LogoutAndDisconnect(ReadOnlySpan<byte> text, DisconnectReason reason)
    {
        SendLogout(text);
        Unbind(reason, closeTransport: true);
    }
}
