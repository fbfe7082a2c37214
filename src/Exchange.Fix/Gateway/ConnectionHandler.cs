using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>
/// Everything one connection needs between bytes and the engine: framer, parsed view, routing of the Logon, and the
/// <see cref="ISessionApplication"/> that maps D/F/G/V. <see cref="Process"/> is the synchronous per-read step the
/// async read loop calls; it allocates nothing in steady state.
/// </summary>
/// <remarks>
/// Threading: <see cref="Process"/> runs on the connection's I/O task only. Calls into the session hold the
/// session's lock; commands, subscriptions and market-data notifications are handed on only after the lock is
/// released, because the publisher may wait for ring space while the sender thread needs the same lock.
/// </remarks>
internal sealed class ConnectionHandler : ISessionApplication, IFixConnectionReader
{
    private const int ScratchSize = 2048;

    private readonly FixGateway _gateway;
    private readonly GatewayServices _s;
    private readonly FixFramer _framer;
    private readonly FixMessage _message;
    private readonly byte[] _scratch = new byte[ScratchSize];
    private readonly int[] _mdInstrumentIds;
    private FixMessage? _replay;
    private Command[] _commands = new Command[4];
    private int _commandCount;
    private MarketDataSubscription[] _subscriptions = new MarketDataSubscription[4];
    private int _subscriptionCount;
    /// <summary>When the message being handled was framed (its command's Timestamp, the session's receive time).</summary>
    private ClockReading _received;
    private long _garbledCount;

    /// <summary>The bound session's logon number (<see cref="GatewaySession.Logins"/>); 0 before logon.</summary>
    private int _login;

    /// <summary>MDReqIDs of the live subscriptions this logon made; made on the first MarketDataRequest.</summary>
    private HashSet<ClOrdId>? _liveMdReqIds;

    /// <summary>Longest MDReqID a MarketDataRequestReject echoes (longer ones are cut).</summary>
    private const int MaxEchoedMdReqIdLength = 64;

    /// <summary>
    /// Longest unknown Symbol a reject echoes (longer ones are cut): a message may be far larger than the scratch buffer
    /// a reply is encoded into, and the venue's own symbols are at most 32 characters.
    /// </summary>
    private const int MaxEchoedSymbolLength = 64;

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

    public void OnApplicationMessage(FixSession session, in InboundMessage message)
    {
        FixMessage parsed = _message;
        if (message.Raw != _message.Raw)
        {
            // Delivered from the session's gap queue (a copy): parse it without disturbing the current frame's view.
            parsed = _replay ??= new FixMessage(_s.Options.MaxMessageSize);
            parsed.Parse(message.Raw);
        }

        int owner = Bound?.OwnerId ?? -1;

        // Mapped straight into the next pending slot (a Command is ~100 bytes; no copy to hand it on). The slot only
        // counts as pending once the mapping succeeded; a rejected command is read from it for the reply.
        ref Command command = ref NextCommandSlot();
        MappingResult result;
        switch (parsed.MsgTypeKind)
        {
            case FixMsgType.NewOrderSingle:
                result = NewOrderSingleReader.Read(parsed, _s.Instruments, owner, _received.UtcNanos, out command);
                break;
            case FixMsgType.OrderCancelRequest:
                result = OrderCancelRequestReader.Read(parsed, _s.Instruments, owner, _received.UtcNanos, out command);
                break;
            case FixMsgType.OrderCancelReplaceRequest:
                result = OrderCancelReplaceRequestReader.Read(parsed, _s.Instruments, owner, _received.UtcNanos, out command);
                break;
            case FixMsgType.OrderStatusRequest:
                result = OrderStatusRequestReader.Read(parsed, _s.Instruments, owner, _received.UtcNanos, out command);
                break;
            case FixMsgType.OrderMassCancelRequest:
                result = OrderMassCancelRequestReader.Read(parsed, _s.Instruments, owner, _received.UtcNanos, out command);
                break;
            case FixMsgType.MarketDataRequest:
                OnMarketDataRequest(session, message, parsed, owner);
                return;
            default:
                // InboundMessages classifies only D/F/G/H/q/V as Application.
                session.Reject(message, SessionRejectReason.InvalidMsgType, FixTags.MsgType, default);
                return;
        }

        switch (result.Outcome)
        {
            case MappingOutcome.Ok:
                _commandCount++;
                break;
            case MappingOutcome.SessionReject:
                session.Reject(message, result.SessionReason, result.RefTag, result.Text);
                break;
            case MappingOutcome.BusinessReject when command.Type is CommandType.Cancel or CommandType.Replace:
                // The engine answers it: the OrderCancelReject reports the order's state (OrdStatus, OrderID), which
                // only the engine knows. A new order's reject needs no state, so the gateway sends that one itself.
                RefusedRequests.Refuse(ref command, result.Reason);
                _commandCount++;
                break;
            default:
                SendOrderReject(session, command, result.Reason, parsed.GetSpan(FixTags.Symbol), default, MassCancelRequestTypeOf(parsed));
                break;
        }
    }

    public void OnLogon(FixSession session)
    {
    }

    /// <summary>MassCancelRequestType (530) of a parsed 35=q, or 0 for any other message or an unreadable value.</summary>
    private static byte MassCancelRequestTypeOf(FixMessage message) =>
        message.MsgTypeKind == FixMsgType.OrderMassCancelRequest && message.ReadChar(FixTags.MassCancelRequestType, out byte type) == FieldStatus.Ok
            ? type
            : (byte)0;

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

    /// <summary>
    /// Answers a command the gateway refuses itself (mapping business reject, venue stopping) the way the engine would:
    /// ExecutionReport 35=8 ExecType=8 for a new order, ExecType=I for a status request, OrderCancelReject 35=9 for a
    /// cancel or replace, OrderMassCancelReport 35=r (531=0) for a mass cancel.
    /// </summary>
    /// <param name="massCancelRequestType">For a mass cancel, the request's MassCancelRequestType (530) to echo; 0 to
    /// derive it from the command.</param>
    private void SendOrderReject(
        FixSession session, in Command command, RejectReason reason, ReadOnlySpan<byte> requestSymbol, ReadOnlySpan<byte> text, byte massCancelRequestType = 0)
    {
        RejectEvents.FromCommand(command, reason, _s.NextExecId(), out EngineEvent rejected);
        requestSymbol = requestSymbol[..Math.Min(requestSymbol.Length, MaxEchoedSymbolLength)];
        if (rejected.Type == EventType.MassCancelReport)
        {
            int reportLength = OrderMassCancelReportEncoder.EncodeBody(
                _scratch, rejected, _s.Instruments.SymbolOf(command.InstrumentId, requestSymbol), massCancelRequestType, text);
            session.SendApplication("r"u8, _scratch.AsSpan(0, reportLength));
        }
        else if (rejected.Type != EventType.CancelRejected)
        {
            bool known = _s.Instruments.TryGetById(command.InstrumentId, out Instrument? instrument);
            int length = ExecutionReportEncoder.EncodeBody(
                _scratch, rejected, known ? _s.Instruments.SymbolOf(command.InstrumentId) : requestSymbol, known ? instrument!.PriceDecimals : 0, text);
            session.SendApplication("8"u8, _scratch.AsSpan(0, length));
        }
        else
        {
            int length = OrderCancelRejectEncoder.EncodeBody(_scratch, rejected, text);
            session.SendApplication("9"u8, _scratch.AsSpan(0, length));
        }
    }

    private void OnMarketDataRequest(FixSession session, in InboundMessage message, FixMessage parsed, int owner)
    {
        // An unsubscribe names a live subscription by its MDReqID: it ends it whatever else it lists (a symbol since
        // removed from the configuration, entry types), so it is looked up before the request's other checks.
        if (parsed.ReadChar(FixTags.SubscriptionRequestType, out byte requestType) == FieldStatus.Ok && requestType == (byte)'2' &&
            ClOrdId.TryCreate(parsed.GetSpan(FixTags.MDReqID), out ClOrdId unsubscribed) && _liveMdReqIds?.Remove(unsubscribed) == true)
        {
            AddSubscription(new MarketDataSubscription { MdReqId = unsubscribed, SubscriptionRequestType = (byte)'2', InstrumentId = -1, Login = _login });
            return;
        }

        MappingResult result = MarketDataRequestReader.Read(parsed, _s.Instruments, _mdInstrumentIds, out MarketDataRequest request);
        if (result.Outcome == MappingOutcome.SessionReject)
        {
            session.Reject(message, result.SessionReason, result.RefTag, result.Text);
            return;
        }

        ReadOnlySpan<byte> id = parsed.GetSpan(FixTags.MDReqID);
        if (result.Outcome == MappingOutcome.BusinessReject)
        {
            MarketDataRejectReason reason = result.Reason switch
            {
                RejectReason.UnknownInstrument => MarketDataRejectReason.UnknownSymbol,
                RejectReason.CapacityExceeded => MarketDataRejectReason.InsufficientBandwidth,
                _ => MarketDataRejectReason.UnsupportedMdEntryType,
            };
            SendMarketDataReject(session, id, reason, result.Text);
            return;
        }

        if (!ClOrdId.TryCreate(request.MdReqId, out ClOrdId mdReqId))
        {
            SendMarketDataReject(session, id, MarketDataRejectReason.None, "MDReqID longer than 32 characters"u8);
            return;
        }

        if ((request.EntryTypeMask & 0b11) == 0 || (request.EntryTypeMask & ~0b11) != 0)
        {
            // Asking for trades (2) or anything else along with the book is refused rather than half served.
            SendMarketDataReject(session, id, MarketDataRejectReason.UnsupportedMdEntryType, "Only bids (0) and offers (1) are published"u8);
            return;
        }

        if (parsed.TryGetBool(FixTags.AggregatedBook, out bool aggregated) && !aggregated)
        {
            SendMarketDataReject(session, id, MarketDataRejectReason.UnsupportedAggregatedBook, "Only the book aggregated by price (266=Y) is published"u8);
            return;
        }

        if (request.SubscriptionRequestType == (byte)'1' && parsed.TryGetInt(FixTags.MDUpdateType, out int updateType) && updateType != 1)
        {
            SendMarketDataReject(session, id, MarketDataRejectReason.UnsupportedMdUpdateType, "Only incremental refresh (265=1) is published"u8);
            return;
        }

        if (request.MarketDepth is 0 or > Core.MarketData.BookDepth.MaxLevels)
        {
            // 0 is the full book, which the venue does not publish: serving 10 levels instead would look like the whole book.
            SendMarketDataReject(session, id, MarketDataRejectReason.UnsupportedMarketDepth, "MarketDepth (264) must be 1 to 10: the top 10 levels are published"u8);
            return;
        }

        // MDReqIDs of this logon's live subscriptions: a new request may not reuse one (its stream would be replaced or
        // ended silently), and an unsubscribe must name one.
        HashSet<ClOrdId> live = _liveMdReqIds ??= [];
        if (request.SubscriptionRequestType == (byte)'2')
        {
            // A live one was ended above.
            SendMarketDataReject(session, id, MarketDataRejectReason.None, "Unknown MDReqID: no subscription of this session has it"u8);
            return;
        }

        if (live.Contains(mdReqId))
        {
            SendMarketDataReject(session, id, MarketDataRejectReason.DuplicateMdReqId, "MDReqID already names a live subscription of this session"u8);
            return;
        }

        if (request.SubscriptionRequestType == (byte)'1')
        {
            if (live.Count >= _s.Options.MaxMarketDataSubscriptions)
            {
                SendMarketDataReject(session, id, MarketDataRejectReason.InsufficientBandwidth, "Too many live market-data subscriptions on this session"u8);
                return;
            }

            live.Add(mdReqId);
        }

        for (int i = 0; i < request.SymbolCount; i++)
        {
            if (_mdInstrumentIds.AsSpan(0, i).Contains(_mdInstrumentIds[i]))
            {
                continue; // a symbol listed twice is one stream, not two
            }

            AddSubscription(new MarketDataSubscription
            {
                MdReqId = mdReqId,
                SubscriptionRequestType = request.SubscriptionRequestType,
                MarketDepth = request.MarketDepth,
                InstrumentId = _mdInstrumentIds[i],
                EntryTypes = (byte)(request.EntryTypeMask & 0b11), // bit 0 = type 0 (bids), bit 1 = type 1 (offers)
                Login = _login,
            });
        }
    }

    /// <summary>Queues a subscription change for the market-data handler (handed on after the session's lock is released).</summary>
    private void AddSubscription(in MarketDataSubscription subscription)
    {
        if (_subscriptionCount == _subscriptions.Length)
        {
            Array.Resize(ref _subscriptions, _subscriptions.Length * 2);
        }

        _subscriptions[_subscriptionCount++] = subscription;
    }

    private void SendMarketDataReject(FixSession session, ReadOnlySpan<byte> mdReqId, MarketDataRejectReason reason, ReadOnlySpan<byte> text)
    {
        // The echo is cut to a length that always fits the reply: an inbound message may carry a far longer value.
        mdReqId = mdReqId[..Math.Min(mdReqId.Length, MaxEchoedMdReqIdLength)];
        int length = MarketDataRequestRejectEncoder.EncodeBody(_scratch, mdReqId, reason, text);
        session.SendApplication("Y"u8, _scratch.AsSpan(0, length));
    }

    /// <summary>The slot after the pending commands; it becomes pending when the caller increments the count.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ref Command NextCommandSlot()
    {
        if (_commandCount == _commands.Length)
        {
            GrowCommands();
        }

        return ref _commands[_commandCount];
    }

    /// <summary>Only a burst released from the gap queue gets here; steady state holds one command at a time.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void GrowCommands() => Array.Resize(ref _commands, _commands.Length * 2);

    private void OnFrame(ReadOnlySpan<byte> frame)
    {
        _received = _s.Clock.Now;
        _message.Parse(frame, _s.Dictionary);
        OnParsed();
    }

    /// <summary>
    /// The session step after parse and validation: the current message (already in the parsed view) through the
    /// session rules, mapping and publishing. Internal so a benchmark can time the session layer apart from the codec.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
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
                try
                {
                    if (!Transport.SessionReleased)
                    {
                        gs.Session.OnMessage(message, _received);
                    }
                }
                finally
                {
                    Transport.EndSection();
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

    /// <summary>Publishes what the last message produced, outside the session lock.</summary>
    private void HandOnPending()
    {
        GatewaySession? gs = Bound;
        for (int i = 0; i < _commandCount; i++)
        {
            ref readonly Command command = ref _commands[i];
            if (!_s.Publisher.TryPublish(command) && gs is not null)
            {
                RejectStopping(gs, command);
            }
        }

        _commandCount = 0;
        for (int i = 0; i < _subscriptionCount; i++)
        {
            _s.MarketData.OnMarketDataRequest(gs!.OwnerId, _subscriptions[i]);
        }

        _subscriptionCount = 0;
    }

    private void RejectStopping(GatewaySession gs, in Command command)
    {
        lock (gs.Lock)
        {
            ConnectionTransport? transport = gs.Transport;
            try
            {
                // A refused request keeps its own reason; it goes without the order's state, as the engine is gone.
                bool refusal = RefusedRequests.IsRefusal(in command);
                SendOrderReject(
                    gs.Session, command, refusal ? RefusedRequests.ReasonOf(in command) : RejectReason.None, default, refusal ? default : "venue is stopping"u8);
            }
            finally
            {
                transport?.EndSection();
            }
        }
    }
}
