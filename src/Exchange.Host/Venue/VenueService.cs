using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using IMeterFactory = System.Diagnostics.Metrics.IMeterFactory;
using System.Net;
using System.Net.Sockets;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Gateway;
using IClock = Exchange.Fix.Session.IClock;
using SystemClock = Exchange.Fix.Session.SystemClock;
using Exchange.Host.Configuration;
using Exchange.Host.Journal;
using Exchange.Host.MarketData;
using Exchange.Host.Metrics;
using Exchange.Host.Network;
using Exchange.Host.Pipeline;
using Exchange.Host.Threading;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Exchange.Host.Venue;

/// <summary>
/// The venue as one hosted service: engine, journal recovery, the inbound and outbound rings with their processors,
/// market data, the FIX gateway and the socket listener, started in dependency order and stopped gracefully.
/// </summary>
/// <remarks>
/// <para>Start: build the engine from the configured strategies; build the gateway (it opens the session stores);
/// open the journal (a torn tail is truncated and logged; corruption, or a journal of other instruments or sessions,
/// refuses the start) and replay every record into the engine before anything is accepted, handing each replayed event
/// to the gateway so that reports a session store never got are stored for resend (VenueService.Recovery.cs); publish
/// the recovered books; start the sender, then the journaller and the matcher; reserve event ids past any a session
/// store holds beyond the journal; publish a new trading day if the journal ends in an earlier one; start market data;
/// open the listener last.</para>
/// <para>Periodic work (every 200 ms; a timer in Threaded mode, the polling thread in Inline mode): the sessions'
/// timers, the trading-day boundary (<see cref="TradingDayRoller"/>), the day's client-id capacity warning.</para>
/// <para>Stop: close the listener; log sessions out; refuse new commands; drain the inbound ring (everything accepted
/// is journalled and matched), then the outbound ring (every report that can be sent is sent); close the journal
/// (fsync); stop market data; a resource a thread that did not stop may still write to is left open
/// (VenueService.Stop.cs).</para>
/// <para>Threading: <see cref="StartAsync"/> and <see cref="StopAsync"/> are called by the host, one after the other.</para>
/// </remarks>
internal sealed partial class VenueService : IHostedService, IDisposable, IAsyncDisposable
{
    private static readonly TimeSpan LogoutTimeout = TimeSpan.FromSeconds(2);

    private readonly VenueOptions _options;
    private readonly IGatewayFactory _gatewayFactory;
    private readonly VenueEndpoint _endpoint;
    private readonly ILogger _logger;
    private readonly ILoggerFactory _loggerFactory;
    private readonly IHostApplicationLifetime? _lifetime;
    private readonly IMeterFactory? _meterFactory;
    private readonly Func<IReadOnlyList<Instrument>, VenueEngine>? _engineFactory;
    private readonly IClock _clock;
    private readonly ConcurrentDictionary<long, Task> _connections = new();
    private readonly CancellationTokenSource _connectionsStop = new();

    private Exception? _fault;
    private VenueEngine? _engine;
    private JournalWriter? _journal;
    private DurabilityGate? _gate;
    private SequenceRing<InboundSlot>? _inbound;
    private SequenceRing<OutboundSlot>? _outbound;
    private EventProcessor? _journaller;
    private ConnectionPoller? _poller;
    private CommandIngress? _ingress;
    private MarketDataPublisher? _marketData;
    private IFixGateway? _gateway;
    private SocketListener? _listener;
    private PeriodicThread? _pollThread;
    private VenueMetrics? _metrics;
    private TradingDayRoller? _tradingDay;
    private ClOrdIdCapacityWatch? _clOrdIdWatch;
    private int _stopped;

    /// <summary>When the stop (or a cleanup without one) began, as a Stopwatch timestamp; 0 before. See <see cref="StopBudget"/>.</summary>
    private long _stopStarted;

    /// <summary>Set when a wait of the stop ran out of a time the budget had cut below its own limit (see <see cref="StopBudget"/>).</summary>
    private bool _stopWaitCut;

    private bool _started;

    public VenueService(
        VenueOptions options,
        IGatewayFactory gatewayFactory,
        VenueEndpoint endpoint,
        ILoggerFactory loggerFactory,
        IHostApplicationLifetime? lifetime = null,
        IMeterFactory? meterFactory = null,
        Func<IReadOnlyList<Instrument>, VenueEngine>? engineFactory = null,
        IClock? clock = null)
    {
        _options = options;
        _gatewayFactory = gatewayFactory;
        _endpoint = endpoint;
        _loggerFactory = loggerFactory;
        _logger = loggerFactory.CreateLogger<VenueService>();
        _lifetime = lifetime;
        _meterFactory = meterFactory;
        _engineFactory = engineFactory;
        _clock = clock ?? SystemClock.Instance;
    }

    /// <summary>How long a stop waits for each ring (and the polling thread) to finish; shorter in tests.</summary>
    internal TimeSpan DrainTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// How long the stop's waits for threads and clients may take, all together: each one's own limit
    /// (<see cref="DrainTimeout"/>, the logout timeout) is cut to what is left of it, though never below
    /// <see cref="MinimumStopWait"/>. The host sets it from its ShutdownTimeout (<see cref="StopBudgetFor"/>): by
    /// default 20 s, so with the eleven waits that floor allows the stop stays under systemd's TimeoutStopSec=30
    /// (deploy/exchange.service). A stop with several threads stuck ends by itself, leaving their resources to the
    /// process exit, rather than being killed part way. Final flushes and fsyncs are not bounded.
    /// </summary>
    internal TimeSpan StopBudget { get; set; } = TimeSpan.FromSeconds(20);

    /// <summary>
    /// The <see cref="StopBudget"/> for the host's ShutdownTimeout (<c>shutdownTimeoutSeconds</c>, 30 s by default):
    /// 10 s less, for the waits' floors and the final flushes, and at least 1 s. An operator who gives the stop more
    /// time (with systemd's TimeoutStopSec) or less sets that one value.
    /// </summary>
    internal static TimeSpan StopBudgetFor(TimeSpan shutdownTimeout)
    {
        TimeSpan budget = shutdownTimeout - TimeSpan.FromSeconds(10);
        return budget > TimeSpan.FromSeconds(1) ? budget : TimeSpan.FromSeconds(1);
    }

    /// <summary>
    /// What each wait of the stop gets once <see cref="StopBudget"/> is spent: a thread told to stop a moment ago that
    /// is not stuck ends within it, so it still gets its final flush, and only a stuck one is left to the process exit.
    /// </summary>
    private static readonly TimeSpan MinimumStopWait = TimeSpan.FromMilliseconds(250);

    /// <summary>Counters the matcher keeps (orders, trades, rejects); readable from any thread.</summary>
    public MatcherCounters Counters { get; } = new();

    /// <summary>The engine (after start). Only for tests and diagnostics once the matcher has stopped.</summary>
    internal VenueEngine? Engine => _engine;

    /// <summary>The journal (after start). Only for tests: its sequences are read from any thread, the rest is the writer thread's.</summary>
    internal JournalWriter? Journal => _journal;

    /// <summary>Commands recovered from the journal at start.</summary>
    public long RecoveredCommands { get; private set; }

    /// <summary>Reports the replay stored for sessions whose stores lacked them (the venue had stopped in between).</summary>
    public long RecoveredReports { get; private set; }

    /// <summary>What opening the journal found (after start).</summary>
    internal JournalScan JournalScan { get; private set; }

    /// <summary>The trading day the venue is in (after start): <see cref="TradingDayCalendar.DayOf"/> numbering.</summary>
    internal long TradingDay => _tradingDay?.CurrentDay ?? long.MinValue;

    /// <summary>
    /// The first fault of a pipeline thread (journaller, matcher, sender or the polling thread), which stopped the venue;
    /// null while it runs or after a requested stop. The process turns it into a failing exit code, so a service manager
    /// sees a failure (and systemd's Restart=on-failure restarts the venue) rather than a clean stop.
    /// </summary>
    public Exception? Fault => Volatile.Read(ref _fault);

    /// <summary>True once the start completed (journal replayed, listener open): a later failure is not a failed start.</summary>
    public bool Started => Volatile.Read(ref _started);

    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "The JIT build loads strategy plugins by design; NativeAOT builds pass an engine factory.")]
    [UnconditionalSuppressMessage("AOT", "IL3050", Justification = "As above.")]
    public Task StartAsync(CancellationToken cancellationToken)
    {
        try
        {
            Start(cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The host cancels the start for a stop request and also when its StartupTimeout runs out; only the first
            // is a requested stop.
            if (_lifetime?.ApplicationStopping.IsCancellationRequested != false)
            {
                LogStoppedDuringStart(_logger);
            }
            else
            {
                LogStartTimedOut(_logger);
            }

            Cleanup();
            throw;
        }
        catch
        {
            Cleanup();
            throw;
        }

        return Task.CompletedTask;
    }

    [RequiresDynamicCode("Builds the engine from plugins unless an engine factory is given.")]
    [RequiresUnreferencedCode("Builds the engine from plugins unless an engine factory is given.")]
    private void Start(CancellationToken stopRequested)
    {
        IReadOnlyList<Instrument> instruments = InstrumentFactory.Create(_options.Instruments);
        _engine = _engineFactory?.Invoke(instruments) ?? VenueEngine.FromPlugins(_options, instruments);
        var books = new BookPublisher(_engine.Engine, _engine.Store, instruments.Count);

        PipelineOptions pipeline = _options.Pipeline;
        bool inline = Enum.Parse<PipelineMode>(pipeline.Mode, ignoreCase: true) == PipelineMode.Inline;
        WaitStrategyKind matcherWait = WaitStrategies.Parse(pipeline.MatcherWait, "Venue:Pipeline:MatcherWait");
        WaitStrategyKind journalWait = WaitStrategies.Parse(pipeline.JournalWait, "Venue:Pipeline:JournalWait");
        WaitStrategyKind senderWait = WaitStrategies.Parse(pipeline.SenderWait, "Venue:Pipeline:SenderWait");
        int? cpu = pipeline.MatcherCpu >= 0 ? pipeline.MatcherCpu : null;

        // Inline: the polling thread is the only producer, and it drains the ring itself when the ring is full.
        _inbound = new SequenceRing<InboundSlot>(pipeline.InboundRingSize, inline ? ProducerMode.Single : ProducerMode.Multi);
        _outbound = new SequenceRing<OutboundSlot>(pipeline.OutboundRingSize, ProducerMode.Single);
        if (pipeline.PreFault)
        {
            // Before the replay, which then writes resident tables too.
            long started = Stopwatch.GetTimestamp();
            long bytes = _engine.Engine.PreFault() + _inbound.PreFault() + _outbound.PreFault();
            LogPreFaulted(_logger, bytes >> 20, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }

        InlinePipeline? inlinePipeline = null;
        _ingress = new CommandIngress(_inbound, inline ? () => inlinePipeline!.RunOnce() : null);
        _marketData = new MarketDataPublisher(
            _engine.Store, instruments.Count, _options.MarketData.PublishIntervalMicroseconds, _loggerFactory.CreateLogger<MarketDataPublisher>());

        // The gateway before the replay: the replay hands it the reports its session stores may lack.
        _gateway = _gatewayFactory.Create(_options, instruments, _ingress, _marketData);
        _ingress.ContinueAfter(Recover(books, _gateway, instruments, stopRequested, out long? latestReplayedTimestamp, out long? journalDay, out long reserveEventIdsThrough));

        // A stop asked for during the replay (systemd sends SIGTERM whenever it likes) ends the start at the next record,
        // or here when it came after the last one: the host then never reports the venue started, and what the replay
        // opened is closed by Cleanup.
        stopRequested.ThrowIfCancellationRequested();
        _gate = new DurabilityGate(_journal!.DurableSequence);
        Counters.ClOrdIdsUsed(_engine.Engine.ClOrdIdsUsedToday);
        _tradingDay = new TradingDayRoller(
            TradingDayCalendar.FromOptions(_options.TradingDay), _clock, _ingress, _loggerFactory.CreateLogger<TradingDayRoller>());

        IFixGateway rejecting = _gateway;
        _metrics = new VenueMetrics(Counters, _meterFactory, () => rejecting.RejectsSent, () => rejecting.MessageRejectsSent);
        _metrics.ObserveClOrdIds(pipeline.MaxClOrdIdsPerDay);
        _clOrdIdWatch = new ClOrdIdCapacityWatch(Counters, pipeline.MaxClOrdIdsPerDay, _logger);
        EventProcessor sender = _outbound.AddProcessor(new SenderHandler(_gateway, _gate, senderWait, _metrics, prepareAfterBatch: !inline), senderWait, "sender");
        JournalWriter journal = _journal;
        _journaller = _inbound.AddProcessor(new JournalHandler(journal, _gate, prepareAfterCommit: !inline), journalWait, "journaller");
        IFixGateway gateway = _gateway;
        if (inline)
        {
            // After the journaller, so every report the sender encodes is already journalled (the gate never waits).
            var handler = new MatcherHandler(_engine.Engine, _outbound, books, Counters, drainOutbound: () => sender.RunAvailable());
            EventProcessor matcher = _inbound.AddProcessor(handler, matcherWait, "matcher", null, _journaller);
            inlinePipeline = new InlinePipeline(_journaller, matcher, sender, PrepareWhileIdle);

            // One file at a time: a preparation is a page fault (~15 µs here), and an order that arrives meanwhile waits
            // for it, so each idle pass takes at most one. A Periodic fsync that fell due after the last batch comes first.
            bool PrepareWhileIdle() => journal.SyncIfDue() || journal.PrepareNextRecord() || gateway.PrepareWhileIdle();

            var passes = new PollerPasses();
            _metrics.ObservePoller(passes);
            _poller = new ConnectionPoller(
                _gateway, inlinePipeline, matcherWait, cpu, ReceiveBufferSize, OnConnectionFault, OnPollerFault)
            {
                PinHandler = result => OnPinned("poller", result),
                Periodic = () => RunPeriodic(gateway),
                Passes = passes,
            };
        }
        else
        {
            if (journal.PeriodicSyncInterval is { } interval)
            {
                // A Periodic fsync that fell due after the last batch before a pause: made by the journaller's own
                // thread (the writer's owner) once it has waited an interval for the next batch.
                _journaller.SetIdleWork(() => journal.SyncIfDue(), interval);
            }

            var handler = new MatcherHandler(_engine.Engine, _outbound, books, Counters);
            EventProcessor matcher = _inbound.AddProcessor(handler, matcherWait, "matcher", cpu);
            matcher.PinHandler = (processor, result) => OnPinned(processor.Name, result);
            foreach (EventProcessor processor in new[] { sender, _journaller, matcher })
            {
                processor.FaultHandler = OnProcessorFault;
            }
        }

        SequenceRing<InboundSlot> inbound = _inbound;
        SequenceRing<OutboundSlot> outbound = _outbound;
        _metrics.RegisterRing("inbound", () => inbound.Occupancy);
        _metrics.RegisterRing("outbound", () => outbound.Occupancy);

        if (_poller is not null)
        {
            _outbound.StartInline();
            _inbound.StartInline();
        }
        else
        {
            _outbound.Start();
            _inbound.Start();
        }

        // Before any connection can publish, so the day's first order comes after the roll; and in Inline mode before
        // the polling thread starts, because it is then the ring's only producer (starting it hands the ring over).
        ReserveEventAndOrderIds(reserveEventIdsThrough, latestReplayedTimestamp);
        _tradingDay.StartAfterReplay(journalDay);
        _poller?.Start();

        _marketData.Start(_gateway);

        WarmUp(instruments);
        stopRequested.ThrowIfCancellationRequested();
        var endPoint = new IPEndPoint(IPAddress.Parse(_options.Listen.Address), _options.Listen.Port);
        _listener = new SocketListener(endPoint, OnAccepted);
        _listener.Start();
        IPEndPoint bound = _listener.LocalEndPoint;
        if (_poller is null)
        {
            // Threaded: periodic work on a thread of its own; Inline runs it on the polling thread (ConnectionPoller.Periodic).
            _pollThread = new PeriodicThread("venue-timers", TimeSpan.FromMilliseconds(200), () => RunPeriodic(gateway));
            _pollThread.Start();
        }

        LogListening(_logger, bound.Address.ToString(), bound.Port, _engine.Description, pipeline.Mode, pipeline.MatcherWait);
        _endpoint.SetBound(bound);
        Volatile.Write(ref _started, true);
    }

    /// <summary>Runs <see cref="VenueWarmup"/> when configured and the engine can be built again; a failure is logged, not fatal.</summary>
    private void WarmUp(IReadOnlyList<Instrument> instruments)
    {
        if (!_options.Pipeline.Warmup || _engine?.CreateScratchEngine is not { } createEngine)
        {
            return;
        }

        try
        {
            WarmupResult result = VenueWarmup.Run(_options, instruments, createEngine(instruments));
            LogWarmedUp(_logger, result.Messages, result.Events, result.Trades, result.Elapsed.TotalMilliseconds);
        }
#pragma warning disable CA1031 // The warm-up only saves the first orders some time: a bug in it must not stop the venue.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            LogWarmupFailed(_logger, exception);
        }
    }

    /// <summary>
    /// A polled connection's receive buffer: at least two of the largest FIX messages, so a whole one always fits.
    /// 256 KiB (about 1,500 orders per read) measured best for pipelined load: 64 KiB did ~295 K orders/s, 256 KiB
    /// ~360 K, 1 MiB ~300-330 K (the batch outgrows the caches).
    /// </summary>
    private static int ReceiveBufferSize => Math.Max(256 * 1024, 2 * Exchange.Fix.Codec.FixFramer.DefaultMaxMessageSize);

    private Task OnAccepted(Socket socket, long id)
    {
        // Registered before the run starts, so a connection that ends at once cannot be re-added after its removal.
        _connections[id] = Task.CompletedTask;
        Task run = _poller is { } poller ? TrackPolledAsync(poller.Attach(socket, id), id) : RunConnectionAsync(new SocketConnection(socket, id));
        _connections.TryUpdate(id, run, Task.CompletedTask);
        return run;
    }

    private async Task TrackPolledAsync(Task closed, long id)
    {
        await closed.ConfigureAwait(false);
        _connections.TryRemove(id, out _);
    }

    private async Task RunConnectionAsync(SocketConnection connection)
    {
        try
        {
            await _gateway!.RunConnectionAsync(connection, connection.Input, _connectionsStop.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (_connectionsStop.IsCancellationRequested)
        {
            // Shutting down.
        }
#pragma warning disable CA1031 // One connection's failure is logged and ends that connection only.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            LogConnectionFailed(_logger, connection.RemoteEndPoint, exception);
        }
        finally
        {
            await connection.DisposeAsync().ConfigureAwait(false);
            _connections.TryRemove(connection.Id, out _);
        }
    }

    private void RunPeriodic(IFixGateway gateway)
    {
        try
        {
            gateway.Poll();
        }
#pragma warning disable CA1031 // A timer callback must not throw; the next tick retries.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            LogPollFailed(_logger, exception);
        }

        try
        {
            _tradingDay?.Check();
            _clOrdIdWatch?.Check();
        }
#pragma warning disable CA1031 // As above: the next tick retries.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            LogTradingDayCheckFailed(_logger, exception);
        }
    }

    private void OnPinned(string thread, AffinityResult result)
    {
        if (result.IsPinned)
        {
            LogPinned(_logger, thread, result.Describe());
        }
        else
        {
            LogNotPinned(_logger, thread, result.Describe());
        }
    }

    private void OnConnectionFault(string remote, Exception exception) => LogConnectionFailed(_logger, remote, exception);

    private void OnPollerFault(Exception exception)
    {
        LogProcessorFault(_logger, "poller", exception);
        Interlocked.CompareExchange(ref _fault, exception, null);
        _gate?.Abort();
        _lifetime?.StopApplication();
    }

    private void OnProcessorFault(EventProcessor processor, Exception exception)
    {
        LogProcessorFault(_logger, processor.Name, exception);

        // The first fault is the cause; later ones (a ring aborted under another processor) are its consequences.
        Interlocked.CompareExchange(ref _fault, exception, null);

        // A faulted processor never moves again, so its ring fills: producers waiting for room (connection tasks on
        // the inbound ring, the matcher on the outbound one) give up instead of spinning until the process ends.
        _inbound?.Abort();
        _outbound?.Abort();
        if (ReferenceEquals(processor, _journaller))
        {
            // Nothing more becomes durable: release the sender (it drops what it cannot acknowledge).
            _gate?.Abort();
        }

        _lifetime?.StopApplication();
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Exchange venue listening on {Address}:{Port} ({Strategies}, {Mode} pipeline, matcher wait {MatcherWait})")]
    private static partial void LogListening(ILogger logger, string address, int port, string strategies, string mode, string matcherWait);

    [LoggerMessage(Level = LogLevel.Information, Message = "Pre-faulted {Megabytes} MiB of engine tables and rings in {Milliseconds:F0} ms (Venue:Pipeline:PreFault; in-memory session stores are written through as they are created)")]
    private static partial void LogPreFaulted(ILogger logger, long megabytes, double milliseconds);

    [LoggerMessage(Level = LogLevel.Information, Message = "Warmed up: {Messages} scripted messages through a scratch session and engine, {Events} reports ({Trades} trades) in {Milliseconds:F0} ms")]
    private static partial void LogWarmedUp(ILogger logger, int messages, int events, int trades, double milliseconds);

    [LoggerMessage(Level = LogLevel.Error, Message = "Warm-up failed; the first orders will compile the code they run")]
    private static partial void LogWarmupFailed(ILogger logger, Exception exception);

    [LoggerMessage(Level = LogLevel.Information, Message = "Thread {Thread}: {Outcome}")]
    private static partial void LogPinned(ILogger logger, string thread, string outcome);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Thread {Thread}: {Outcome}")]
    private static partial void LogNotPinned(ILogger logger, string thread, string outcome);

    [LoggerMessage(Level = LogLevel.Critical, Message = "Pipeline thread {Thread} failed; stopping the venue")]
    private static partial void LogProcessorFault(ILogger logger, string thread, Exception exception);

    [LoggerMessage(Level = LogLevel.Error, Message = "Connection {Remote} failed")]
    private static partial void LogConnectionFailed(ILogger logger, string remote, Exception exception);

    [LoggerMessage(Level = LogLevel.Error, Message = "Session timer poll failed")]
    private static partial void LogPollFailed(ILogger logger, Exception exception);

    [LoggerMessage(Level = LogLevel.Error, Message = "Trading day or client-id capacity check failed")]
    private static partial void LogTradingDayCheckFailed(ILogger logger, Exception exception);
}
