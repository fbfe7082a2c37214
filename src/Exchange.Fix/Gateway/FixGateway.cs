using System.Buffers;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.IO.Pipelines;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Exchange.Fix.Mapping;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>
/// The venue's FIX side: connections in (frame → parse → validate → session → map → <see cref="ICommandPublisher"/>),
/// engine events and market data out (encode → session → connection). See Gateway/README.md.
/// </summary>
/// <remarks>
/// Threading: see <see cref="IFixGateway"/>. Every call into one <see cref="FixSession"/> holds that session's lock;
/// nothing that can wait (publishing into the inbound ring, market-data callbacks) runs under it. Allocation: none per
/// message in steady state; per connection a framer, a parsed view and small buffers.
/// </remarks>
public sealed partial class FixGateway : IFixGateway, IDisposable
{
    private static ReadOnlySpan<byte> BacklogText => "send backlog exceeded"u8;

    /// <summary>A session whose timer poll keeps failing is logged at the first failure of the run and then once per this many.</summary>
    private const int PollFailureLogInterval = 1000;

    private readonly GatewayServices _services;
    private readonly GatewaySession[] _sessions;
    private int _prepareFrom; // PrepareWhileIdle's next session to look at; its caller's thread only
    private readonly ConcurrentDictionary<ConnectionHandler, bool> _awaitingLogon = new();

    // Owned by the sender thread (SendEvent) and the market-data thread (SendMarketData*) respectively.
    private readonly byte[] _eventBody = new byte[Codec.FixMessageWriter.TypicalMaxLength];
    private readonly byte[] _marketDataBody = new byte[MarketDataIncrementalEncoder.MaxBodyLength];
    private volatile bool _stopping;

    /// <param name="sessions">Configured sessions; a session's index here is its owner id.</param>
    /// <param name="instruments">Tradable instruments, ids dense 0..n-1.</param>
    /// <param name="clock">Receive times (Command.Timestamp), SendingTime and all timers.</param>
    /// <param name="storeFactory">Opens each session's store (file or memory); the gateway disposes them.</param>
    public FixGateway(
        IReadOnlyList<SessionConfig> sessions,
        IReadOnlyList<Instrument> instruments,
        IClock clock,
        Func<SessionConfig, ISessionStore> storeFactory,
        ICommandPublisher publisher,
        IMarketDataRequestHandler marketData,
        GatewayOptions options,
        IGatewayLog log)
    {
        ArgumentNullException.ThrowIfNull(sessions);
        ArgumentNullException.ThrowIfNull(instruments);
        ArgumentNullException.ThrowIfNull(clock);
        ArgumentNullException.ThrowIfNull(storeFactory);
        ArgumentNullException.ThrowIfNull(publisher);
        ArgumentNullException.ThrowIfNull(marketData);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(log);
        _services = new GatewayServices(new InstrumentDirectory(instruments), clock, publisher, marketData, options, log);
        Registry = new SessionRegistry(FixSessionEncoder.Instance, clock);
        _sessions = new GatewaySession[sessions.Count];
        for (int i = 0; i < sessions.Count; i++)
        {
            _sessions[i] = new GatewaySession(i, Registry.Add(sessions[i], storeFactory(sessions[i])));
        }
    }

    public int SessionCount => _sessions.Length;

    public long RejectsSent => _services.RejectsSent;

    public MessageRejects MessageRejectsSent
    {
        get
        {
            long rejects = 0;
            long businessRejects = _services.OverLimitRefusals;
            foreach (GatewaySession gs in _sessions)
            {
                rejects += gs.Session.RejectsSent;
                businessRejects += gs.Session.UnsupportedTypeRejectsSent;
            }

            return new MessageRejects(rejects, businessRejects);
        }
    }

    internal SessionRegistry Registry { get; }

    /// <summary>The session's FixSession (tests, diagnostics); read its state only, calls must go through the gateway.</summary>
    internal FixSession GetSession(int ownerId) => _sessions[ownerId].Session;

    public bool IsLoggedOn(int ownerId) => (uint)ownerId < (uint)_sessions.Length && _sessions[ownerId].Session.State == SessionState.Active;

    public async Task RunConnectionAsync(IFixConnection connection, PipeReader input, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(input);
        ConnectionHandler handler = Attach(connection, input);
        try
        {
            while (!handler.Transport.CloseRequested)
            {
                ReadResult read = await input.ReadAsync(cancellationToken).ConfigureAwait(false);
                if (handler.Transport.CloseRequested)
                {
                    break;
                }

                handler.Process(read.Buffer, out SequencePosition consumed, out SequencePosition examined);
                input.AdvanceTo(consumed, examined);
                if (read.IsCompleted)
                {
                    break;
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Host shutdown.
        }
        catch (Exception ex) when (ex is IOException or SocketException or ObjectDisposedException or InvalidOperationException)
        {
            _services.Log.Info($"connection {connection.Id} ({connection.RemoteEndPoint}): read ended: {ex.Message}");
        }
        finally
        {
            handler.Detach("connection ended");
        }
    }

    public IFixConnectionReader Attach(IFixConnection connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        return Attach(connection, input: null);
    }

    private ConnectionHandler Attach(IFixConnection connection, PipeReader? input)
    {
        var handler = new ConnectionHandler(this, _services, connection, input);
        _awaitingLogon[handler] = true;
        if (_stopping)
        {
            handler.Transport.Close("venue is stopping");
        }

        return handler;
    }

    /// <summary>The end of a connection, however it ended: releases its session and closes the transport.</summary>
    internal void Detach(ConnectionHandler handler, string why)
    {
        _awaitingLogon.TryRemove(handler, out _);
        try
        {
            handler.OnConnectionEnded();
        }
        finally
        {
            // Closed even if ending the session threw (a pipeline fault met while publishing its cancel on disconnect):
            // the socket must not outlive its connection.
            handler.Transport.Close(why);
        }
    }

    public void SendEvent(in EngineEvent engineEvent, in StageTimes times)
    {
        int length = EncodeEvent(in engineEvent, out ReadOnlySpan<byte> msgType);
        if (length < 0)
        {
            return;
        }

        Span<byte> body = _eventBody;
        if (_services.Options.StageTimestamps)
        {
            length += StageTimeTags.Write(body[length..], times, times.Sent != 0 ? times.Sent : Stopwatch.GetTimestamp());
        }

        Send(_sessions[engineEvent.OwnerId], msgType, body[..length], transient: false, engineEvent.EventId);
    }

    /// <summary>
    /// Encodes an engine event's report body into the sender's buffer: OrderCancelReject (9) for a refused cancel or
    /// replace, OrderMassCancelReport (r) for a mass cancel's report, ExecutionReport (8) for everything else. Returns the body's length, or -1 (logged) when the event names
    /// an owner or instrument the gateway does not have; the same event is dropped the same way whenever it is encoded.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)] // on the sender's path per report, as when it was inside SendEvent
    private int EncodeEvent(in EngineEvent engineEvent, out ReadOnlySpan<byte> msgType)
    {
        msgType = default;
        if ((uint)engineEvent.OwnerId >= (uint)_sessions.Length)
        {
            _services.Log.Warn($"event {engineEvent.EventId} for unknown owner {engineEvent.OwnerId} dropped");
            return -1;
        }

        if (engineEvent.Type == EventType.CancelRejected)
        {
            msgType = "9"u8;
            return OrderCancelRejectEncoder.EncodeBody(_eventBody, engineEvent);
        }

        InstrumentDirectory instruments = _services.Instruments;
        if (engineEvent.Type == EventType.MassCancelReport)
        {
            // InstrumentId -1: every instrument, no Symbol.
            msgType = "r"u8;
            return OrderMassCancelReportEncoder.EncodeBody(_eventBody, engineEvent, instruments.SymbolOf(engineEvent.InstrumentId, default));
        }

        if (!instruments.TryGetById(engineEvent.InstrumentId, out Instrument? instrument))
        {
            _services.Log.Warn($"event {engineEvent.EventId} for unknown instrument {engineEvent.InstrumentId} dropped");
            return -1;
        }

        msgType = "8"u8;
        return ExecutionReportEncoder.EncodeBody(_eventBody, engineEvent, instruments.SymbolOf(instrument.Id), instrument.PriceDecimals);
    }

    public void SendMarketDataSnapshot(int ownerId, in MarketDataSubscription subscription, in BookDepth depth)
    {
        if (!TryGetMarketDataTarget(ownerId, subscription.InstrumentId, out GatewaySession? gs, out Instrument? instrument))
        {
            return;
        }

        int length = MarketDataSnapshotEncoder.EncodeBody(
            _marketDataBody, subscription.MdReqId.AsSpan(), _services.Instruments.SymbolOf(instrument.Id), depth,
            subscription.MarketDepth, instrument.PriceDecimals, subscription.EntryTypes);
        Send(gs, "W"u8, _marketDataBody.AsSpan(0, length), transient: true, eventId: 0, subscription.Login);
    }

    public void SendMarketDataIncremental(int ownerId, in MarketDataSubscription subscription, in BookDepth previous, in BookDepth current)
    {
        if (!TryGetMarketDataTarget(ownerId, subscription.InstrumentId, out GatewaySession? gs, out Instrument? instrument))
        {
            return;
        }

        int length = MarketDataIncrementalEncoder.EncodeBody(
            _marketDataBody, subscription.MdReqId.AsSpan(), _services.Instruments.SymbolOf(instrument.Id), previous, current,
            subscription.MarketDepth, instrument.PriceDecimals, subscription.EntryTypes);
        if (length > 0)
        {
            Send(gs, "X"u8, _marketDataBody.AsSpan(0, length), transient: true, eventId: 0, subscription.Login);
        }
    }

    public void Poll()
    {
        foreach (GatewaySession gs in _sessions)
        {
            if (gs.Session.State == SessionState.Disconnected)
            {
                // A client that came back, got its resend and left within one poll still has its loss logged. The
                // count is read without the lock first (a stale read only delays the log to the next poll).
                if (gs.Session.QueuedMessagesLost != gs.QueuedMessagesLostLogged)
                {
                    lock (gs.Lock)
                    {
                        LogQueuedMessagesLost(gs);
                    }
                }

                continue;
            }

            lock (gs.Lock)
            {
                ConnectionTransport? transport = gs.Transport;
                try
                {
                    gs.Session.Poll();
                    LogQueuedMessagesLost(gs);
                    gs.PollFailures = 0; // a later failure starts a new run, logged at once
                }
#pragma warning disable CA1031 // One session's failure (its store's, say) must not stop the timers of the sessions after it.
                catch (Exception exception)
#pragma warning restore CA1031
                {
                    LogPollFailure(gs, exception);
                }
                finally
                {
                    transport?.EndSection();
                }

                try
                {
                    CutOffIfSlow(gs, transport);
                }
#pragma warning disable CA1031 // As above: the cut-off's Logout can fail on the same store.
                catch (Exception exception)
#pragma warning restore CA1031
                {
                    LogPollFailure(gs, exception);
                }
            }
        }

        if (!_awaitingLogon.IsEmpty)
        {
            CloseSilentConnections();
        }
    }

    public bool PrepareWhileIdle()
    {
        // Round robin from the session after the last one prepared, so one busy store cannot keep the others waiting.
        int count = _sessions.Length;
        for (int i = 0; i < count; i++)
        {
            int at = _prepareFrom + i < count ? _prepareFrom + i : _prepareFrom + i - count;
            GatewaySession gs = _sessions[at];

            // Without the lock, as a hint: other threads write stores too (the market-data publisher; in Threaded mode
            // also the connection threads and the timer), so the answer may be stale. A stale answer only skips a
            // preparation or asks again under the lock, where PrepareStore decides afresh.
            if (gs.Session.StoreNeedsPrepare)
            {
                lock (gs.Lock)
                {
                    // One store per call: each preparation is a page fault that an arriving order would wait for.
                    if (gs.Session.PrepareStore())
                    {
                        _prepareFrom = at + 1 < count ? at + 1 : 0;
                        return true;
                    }
                }
            }
        }

        return false;
    }

    /// <summary>
    /// Warns of a session's failed timer poll (caller holds the session's lock): the first failure of a run (polls failing
    /// one after another), then one in every <see cref="PollFailureLogInterval"/>, as a failure that repeats at every
    /// tick would flood the log.
    /// </summary>
    private void LogPollFailure(GatewaySession gs, Exception exception)
    {
        if (gs.PollFailures++ % PollFailureLogInterval == 0)
        {
            _services.Log.Warn(
                $"{gs.Name}: timer poll failed ({gs.PollFailures} so far): {exception.GetType().Name}: {exception.Message}");
        }
    }

    /// <summary>Warns once per increase of the session's lost queued messages (caller holds the session's lock).</summary>
    private void LogQueuedMessagesLost(GatewaySession gs)
    {
        long lost = gs.Session.QueuedMessagesLost;
        if (lost != gs.QueuedMessagesLostLogged)
        {
            SessionConfig config = gs.Session.Config;
            _services.Log.Warn(
                $"Session {config.SenderCompID}->{config.TargetCompID}: {lost - gs.QueuedMessagesLostLogged} message(s) queued while the client "
                + $"was away were no longer in its store when due ({lost} since start), so the client never got them: they were gap-filled "
                + "on its resend or left out at its reset Logon. An in-memory store keeps only its most recent messages "
                + "(Sessions[i]:MemoryStoreMegabytes); a file store (StorePath) keeps them all.");
            gs.QueuedMessagesLostLogged = lost;
        }
    }

    public void Dispose() => Registry.Dispose();

    /// <summary>The configured session our CompID / their CompID name, without allocating.</summary>
    internal GatewaySession? Find(ReadOnlySpan<byte> ourCompId, ReadOnlySpan<byte> theirCompId)
    {
        foreach (GatewaySession gs in _sessions)
        {
            SessionConfig config = gs.Session.Config;
            if (ourCompId.SequenceEqual(config.SenderCompIDBytes) && theirCompId.SequenceEqual(config.TargetCompIDBytes))
            {
                return gs;
            }
        }

        return null;
    }

    internal void OnRouted(ConnectionHandler handler, LogonRouting routing)
    {
        _awaitingLogon.TryRemove(handler, out _);
        IFixConnection connection = handler.Transport.Connection;
        if (routing == LogonRouting.Accepted)
        {
            SessionConfig config = handler.Bound!.Session.Config;
            _services.Log.Info($"connection {connection.Id} ({connection.RemoteEndPoint}): logged on as {config.TargetCompID}->{config.SenderCompID}");
        }
        else
        {
            _services.Log.Info($"connection {connection.Id} ({connection.RemoteEndPoint}): logon refused, {routing}");
        }
    }

    /// <summary>For tests and benchmarks: a handler driven synchronously, without the async read loop.</summary>
    internal ConnectionHandler CreateHandler(IFixConnection connection) => new(this, _services, connection, input: null);

    /// <summary>One application message into a session, and the slow-consumer check for its connection.</summary>
    /// <param name="eventId">The engine event a report comes from (kept by the store), 0 for other messages.</param>
    /// <param name="login">
    /// Market data only: the logon its subscription belongs to. Dropped unless that logon is the session's current one,
    /// so a client that logged on again never gets the old logon's streams, even before the publisher hears of the end.
    /// </param>
    private void Send(GatewaySession gs, ReadOnlySpan<byte> msgType, ReadOnlySpan<byte> body, bool transient, long eventId, int login = -1)
    {
        lock (gs.Lock)
        {
            if (login >= 0 && login != gs.Logins)
            {
                return;
            }

            ConnectionTransport? transport = gs.Transport;
            try
            {
                if (transient)
                {
                    gs.Session.TrySendTransient(msgType, body);
                }
                else
                {
                    gs.Session.SendApplication(msgType, body, eventId);
                }
            }
            finally
            {
                transport?.EndSection();
            }

            CutOffIfSlow(gs, transport);
        }
    }

    /// <summary>
    /// The slow-consumer check, after every section that may have written to the session's connection: reports and
    /// market data, the timer's output, and the answers to the client's own messages (a ResendRequest repeated by a
    /// client that reads nothing would otherwise grow the backlog without bound). Under the session's lock, after the
    /// section ended.
    /// </summary>
    internal void CutOffIfSlow(GatewaySession gs, ConnectionTransport? transport)
    {
        if (transport is not null && !gs.SlowConsumerHandled && transport.Connection.Backlog > _services.Options.MaxSendBacklogBytes)
        {
            CutOffSlowConsumer(gs, transport);
        }
    }

    /// <summary>Logout with a reason, then close without waiting for the reply: a slow client must not hold anyone up.</summary>
    private void CutOffSlowConsumer(GatewaySession gs, ConnectionTransport transport)
    {
        gs.SlowConsumerHandled = true;
        IFixConnection connection = transport.Connection;
        _services.Log.Warn($"connection {connection.Id} ({connection.RemoteEndPoint}): backlog {connection.Backlog} B over {_services.Options.MaxSendBacklogBytes} B, logging out");
        try
        {
            gs.Session.Logout(BacklogText);
        }
        finally
        {
            try
            {
                transport.EndSection();
            }
            finally
            {
                // Closed even when the Logout failed (a session store that throws): the client is cut off either way,
                // and with SlowConsumerHandled set nothing would try again, leaving it connected and still too slow.
                transport.Close("send backlog exceeded");
            }
        }
    }

    private bool TryGetMarketDataTarget(int ownerId, int instrumentId, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out GatewaySession? gs, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out Instrument? instrument)
    {
        gs = (uint)ownerId < (uint)_sessions.Length ? _sessions[ownerId] : null;
        instrument = null;
        return gs is not null && gs.Session.State == SessionState.Active && _services.Instruments.TryGetById(instrumentId, out instrument);
    }

    private void CloseSilentConnections()
    {
        long now = _services.Clock.MonotonicNanos;
        long limit = _services.Options.LogonTimeout.Ticks * 100;
        foreach (ConnectionHandler handler in _awaitingLogon.Keys)
        {
            if (now - handler.StartedMono >= limit)
            {
                _awaitingLogon.TryRemove(handler, out _);
                handler.Transport.Close("no logon within the logon timeout");
            }
        }
    }
}
