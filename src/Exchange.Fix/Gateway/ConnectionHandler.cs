using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>
/// Everything one connection needs between bytes and the engine: framer, parsed view, routing of the Logon, and the
/// <see cref="ISessionApplication"/> that maps D/F/G/H/q (ConnectionHandler.Orders.cs) and V
/// (ConnectionHandler.MarketData.cs). <see cref="Process"/> is the synchronous per-read step the async read loop calls;
/// it allocates nothing in steady state.
/// </summary>
/// <remarks>
/// Threading: <see cref="Process"/> runs on the connection's I/O task only. Calls into the session hold the
/// session's lock; commands, subscriptions and market-data notifications are handed on only after the lock is
/// released, because the publisher may wait for ring space while the sender thread needs the same lock.
/// </remarks>
internal sealed partial class ConnectionHandler : ISessionApplication, IFixConnectionReader
{
    private const int ScratchSize = 2048;

    private readonly FixGateway _gateway;
    private readonly GatewayServices _s;
    private readonly FixFramer _framer;
    private readonly FixMessage _message;
    private readonly byte[] _scratch = new byte[ScratchSize];
    private readonly int[] _mdInstrumentIds;
    private FixMessage? _replay;
    /// <summary>When the message being handled was framed (its command's Timestamp, the session's receive time).</summary>
    private ClockReading _received;
    private long _garbledCount;

    /// <summary>The bound session's logon number (<see cref="GatewaySession.Logins"/>); 0 before logon.</summary>
    private int _login;

    /// <summary>True from garbled input until the next complete frame: the framer is looking for a message start.</summary>
    private bool _resyncing;

    public ConnectionHandler(FixGateway gateway, GatewayServices services, IFixConnection connection, PipeReader? input)
    {
        _gateway = gateway;
        _s = services;
        _framer = new FixFramer(services.Options.MaxMessageSize);
        _message = new FixMessage(services.Options.MaxMessageSize);
        _mdInstrumentIds = new int[services.Options.MaxMarketDataSymbols];
        Transport = new ConnectionTransport(connection, input, services);
        StartedMono = services.Clock.MonotonicNanos;
    }

    public ConnectionTransport Transport { get; }

    /// <summary>The logged-on session; null before logon.</summary>
    public GatewaySession? Bound { get; private set; }

    public long StartedMono { get; }

    public bool CloseRequested => Transport.CloseRequested;

    public void Detach(string why) => _gateway.Detach(this, why);

    /// <summary>Frames and handles every complete message in <paramref name="buffer"/>.</summary>
    /// <param name="consumed">Where the pipe may advance to.</param>
    /// <param name="examined">How far the pipe has been looked at (its end when waiting for more).</param>
    public void Process(in ReadOnlySequence<byte> buffer, out SequencePosition consumed, out SequencePosition examined)
    {
        if (buffer.IsSingleSegment)
        {
            int done = Process(buffer.FirstSpan, out bool stoppedForClose);
            consumed = buffer.GetPosition(done);
            examined = stoppedForClose ? consumed : buffer.End;
            return;
        }

        ReadOnlySequence<byte> rest = buffer;
        while (true)
        {
            FrameResult result = _framer.TryReadFrame(rest, out ReadOnlySpan<byte> frame, out consumed, out examined, out GarbledReason why);
            if (result == FrameResult.Incomplete)
            {
                return;
            }

            OnFrameResult(result, frame, why, result == FrameResult.Garbled && StartsWithFix(rest));
            if (Transport.CloseRequested)
            {
                examined = consumed;
                return;
            }

            // Nothing left (the usual case: reads end on a message boundary): the framer's answer for an empty buffer
            // is Incomplete with exactly these positions, so skip asking it, and skip slicing. A position that only
            // differs in representation (the end of one segment vs the start of the next) takes the general path.
            if (consumed.Equals(rest.End))
            {
                examined = consumed;
                return;
            }

            rest = rest.Slice(consumed);
            if (rest.IsEmpty)
            {
                consumed = rest.Start;
                examined = rest.End;
                return;
            }
        }
    }

    /// <summary>
    /// Frames and handles every complete message in a contiguous <paramref name="buffer"/> (a polled socket's receive
    /// buffer, or a pipe buffer in one segment); returns how many bytes are done with. The rest is an incomplete
    /// message, or anything after the point where the connection started closing.
    /// </summary>
    public int Process(ReadOnlySpan<byte> buffer) => Process(buffer, out _);

    /// <param name="stoppedForClose">True when the connection began closing after a message it handled, so the bytes
    /// after it were not looked at; false when it stopped at an incomplete message or the end.</param>
    private int Process(ReadOnlySpan<byte> buffer, out bool stoppedForClose)
    {
        int done = 0;
        stoppedForClose = false;
        while (done < buffer.Length)
        {
            ReadOnlySpan<byte> rest = buffer[done..];
            FrameResult result = _framer.TryReadFrame(rest, out ReadOnlySpan<byte> frame, out int used, out GarbledReason why);
            if (result == FrameResult.Incomplete)
            {
                break;
            }

            OnFrameResult(result, frame, why, result == FrameResult.Garbled && rest.StartsWith("8=FIX"u8));
            done += used;
            if (Transport.CloseRequested)
            {
                stoppedForClose = true;
                break;
            }
        }

        return done;
    }

    /// <param name="startsWithFix">Garbled input only: whether the bytes the framer looked at begin with "8=FIX".</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void OnFrameResult(FrameResult result, ReadOnlySpan<byte> frame, GarbledReason why, bool startsWithFix)
    {
        if (result == FrameResult.Complete)
        {
            _resyncing = false;
            OnFrame(frame);
        }
        else
        {
            OnGarbled(why, startsWithFix);
        }
    }

    /// <summary>The read loop ended (peer closed, error, or we closed): release the session and drop market data.</summary>
    public void OnConnectionEnded()
    {
        GatewaySession? gs = Bound;
        if (gs is null)
        {
            return;
        }

        bool cancelOrders;
        lock (gs.Lock)
        {
            try
            {
                if (!Transport.SessionReleased)
                {
                    Transport.ReleaseSession();
                    gs.Session.OnTransportClosed();
                }
            }
#pragma warning disable CA1031 // The rest of the ending (cancel on disconnect, market data) must still run; see below.
            catch (Exception exception)
#pragma warning restore CA1031
            {
                // The session ended all the same (FixSession.Unbind finishes even when its store's flush throws), so
                // this connection's orders are still cancelled if the session asks for it, and the polling thread that
                // detaches it is not taken down by one session's failed store.
                _s.Log.Warn($"connection {Transport.Connection.Id} ({Transport.Connection.RemoteEndPoint}): {gs.Name} failed while ending: {exception.GetType().Name}: {exception.Message}");
            }
            finally
            {
                Transport.EndSection();
            }

            if (ReferenceEquals(gs.Transport, Transport))
            {
                gs.Transport = null;
            }

            cancelOrders = gs.CancelOnDisconnectPending && _login > 0 && _login == gs.Logins;
        }

        // Outside the lock, as every publication is (see HandOnPending).
        if (cancelOrders)
        {
            _gateway.CancelOrdersOfEndedLogon(gs);
        }

        // Outside the lock (the handler may hold its own lock while sending market data). Only this logon's
        // subscriptions (and older ones) go: a newer connection may already be logged on with its own.
        if (_login > 0)
        {
            _s.MarketData.OnSessionDisconnected(gs.OwnerId, _login);
        }
    }

    public void OnLogon(FixSession session)
    {
    }

    public void OnDisconnected(FixSession session, DisconnectReason reason)
    {
        GatewaySession? gs = Bound;
        if (gs is null)
        {
            return;
        }

        if (ReferenceEquals(gs.Transport, Transport))
        {
            gs.Transport = null;
        }

        // Marked in the same section that made the session Disconnected, so no new Logon can slip in before the mark.
        // A logon refused on arrival (_login 0) had no orders.
        if (_login > 0 && _login == gs.Logins && session.Config.CancelOnDisconnect)
        {
            gs.CancelOnDisconnectPending = true;
        }
    }

    private void OnFrame(ReadOnlySpan<byte> frame)
    {
        _received = _s.Clock.Now;

        // Cleared here too, so a delivery that threw cannot leave its command to the next frame.
        _fusedCommandSlot = NoFusedCommand;
        LayoutPlan? guided = _message.ParseDeferringGuidedChecks(frame, _s.Dictionary);
        if (guided is not null)
        {
            GatewaySession? session = Bound;
            if (session is not null && _message.MsgTypeKind == FixMsgType.NewOrderSingle && TryDeliverFusedOrder(session, guided))
            {
                return;
            }

            _message.CompleteGuided(guided, _s.Dictionary);
        }

        OnParsed();
    }

    /// <summary>
    /// Parses and validates <paramref name="frame"/> into the current message the usual way (the plan's checks, never
    /// the fused read), for a benchmark that then times <see cref="OnParsed"/> alone.
    /// </summary>
    internal void ParseForSessionLayer(ReadOnlySpan<byte> frame) => _message.Parse(frame, _s.Dictionary);

    /// <summary>
    /// The session step after parse and validation: the current message (already in the parsed view) through the
    /// session rules, mapping and publishing. Internal so a benchmark can time the session layer apart from the codec.
    /// </summary>
    /// <remarks>Not inlined into <see cref="OnFrame"/>: see <see cref="TryDeliverFusedOrder"/>.</remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal void OnParsed()
    {
        FixMessage parsed = _message;
        SessionMsgType type = InboundMessages.Classify(parsed, _s.Dictionary);
        if (InboundMessages.IsApplication(type))
        {
            InboundMessages.Header(parsed, parsed.Validation, type, out InboundMessage message);
            Deliver(message);
        }
        else
        {
            DeliverAdmin(type);
        }
    }

    /// <summary>
    /// Admin messages carry more fields; built in their own frame so the per-order path does not zero and copy the
    /// admin variant's temporaries (the JIT zeroes every struct temporary of a method in its prologue).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void DeliverAdmin(SessionMsgType type)
    {
        FixMessage parsed = _message;
        InboundMessages.Header(parsed, parsed.Validation, type, out InboundMessage header);
        Deliver(InboundMessages.WithAdminFields(header, parsed));
    }

    private void OnGarbled(GarbledReason why, bool startsWithFix)
    {
        if (_garbledCount++ % _s.Options.GarbledLogInterval == 0)
        {
            _s.Log.Warn($"connection {Transport.Connection.Id} ({Transport.Connection.RemoteEndPoint}): garbled input dropped ({why}), {_garbledCount} so far");
        }

        // A frame that starts like FIX but names another version is a wrong BeginString (Logout), not line noise;
        // unless it was found by resynchronising after garbled input, where "8=FIX" may sit inside a field's value
        // (58=FIX ...) and says nothing about the client's version.
        bool wrongVersion = why == GarbledReason.BadBeginString && !_resyncing && startsWithFix;
        _resyncing = true;
        if (Bound is null || wrongVersion)
        {
            _received = _s.Clock.Now;
            Deliver(InboundMessages.Garbled(wrongVersion));
        }
    }

    private static bool StartsWithFix(in ReadOnlySequence<byte> buffer)
    {
        if (buffer.Length < 5)
        {
            return false;
        }

        Span<byte> head = stackalloc byte[5];
        buffer.Slice(0, 5).CopyTo(head);
        return head.SequenceEqual("8=FIX"u8);
    }

    private void Deliver(in InboundMessage message)
    {
        GatewaySession? gs = Bound;
        if (gs is null)
        {
            Route(message);
        }
        else
        {
            lock (gs.Lock)
            {
                bool wrote = false;
                try
                {
                    if (!Transport.SessionReleased)
                    {
                        gs.Session.OnMessage(message, _received);
                    }
                }
                finally
                {
                    wrote = Transport.IsWritingSection;
                    Transport.EndSection();
                }

                // Only when the answer wrote something (a resend, a reject): an accepted order writes nothing here.
                if (wrote && ReferenceEquals(gs.Transport, Transport))
                {
                    _gateway.CutOffIfSlow(gs, Transport);
                }
            }
        }

        HandOnPending();
    }

    /// <summary>
    /// The first message: the registry checks it is a Logon for a configured, unconnected session and binds us. The
    /// session's lock is taken first (found by CompIDs) so the sender thread cannot touch the session mid-logon.
    /// </summary>
    private void Route(in InboundMessage message)
    {
        GatewaySession? gs = message.Type == SessionMsgType.Logon ? _gateway.Find(message.TargetCompID, message.SenderCompID) : null;
        if (gs is null)
        {
            try
            {
                LogonRouting refused = _gateway.Registry.Route(message, Transport, this, out _);
                _s.Log.Info($"connection {Transport.Connection.Id} ({Transport.Connection.RemoteEndPoint}): refused, {refused}");
            }
            finally
            {
                Transport.EndSection();
            }

            return;
        }

        LogonRouting routing;
        lock (gs.Lock)
        {
            try
            {
                if (gs.CancelOnDisconnectPending)
                {
                    // Never bound: the previous logon's cancel is not in the ring yet (see CancelOnDisconnectPending).
                    Transport.Disconnect(DisconnectReason.PreviousLogonEnding);
                    routing = LogonRouting.PreviousLogonEnding;
                }
                else
                {
                    Bound = gs;
                    routing = _gateway.Registry.Route(message, Transport, this, out _);
                }

                if (routing == LogonRouting.Accepted)
                {
                    gs.Transport = Transport;
                    gs.SlowConsumerHandled = false;
                    _login = ++gs.Logins;
                    _throttle = new MessageThrottle(gs.Session.Config.MaxApplicationMessagesPerSecond);
                    _selfTradePrevention = gs.Session.Config.SelfTradePrevention;
                }
                else if (routing is not LogonRouting.Refused)
                {
                    // Never bound (e.g. the session already has a connection): this connection must not touch it.
                    Bound = null;
                }
            }
            finally
            {
                Transport.EndSection();
            }
        }

        _gateway.OnRouted(this, routing);
    }

}
