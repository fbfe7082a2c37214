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
/// to the gateway so that reports a session store never got are stored for resend; publish the recovered books; start
/// the sender, then the journaller and the matcher; publish a new trading day if the journal ends in an earlier one;
/// start market data; open the listener last.</para>
/// <para>Periodic work (every 200 ms; a timer in Threaded mode, the polling thread in Inline mode): the sessions'
/// timers, the trading-day boundary (<see cref="TradingDayRoller"/>), the day's client-id capacity warning.</para>
/// <para>Stop: close the listener; log sessions out; refuse new commands; drain the inbound ring (everything accepted
/// is journalled and matched), then the outbound ring (every report that can be sent is sent); close the journal
/// (fsync); stop market data.</para>
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
    private Timer? _pollTimer;
    private VenueMetrics? _metrics;
    private TradingDayRoller? _tradingDay;
    private ClOrdIdCapacityWatch? _clOrdIdWatch;
    private int _stopped;

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

    /// <summary>Counters the matcher keeps (orders, trades, rejects); readable from any thread.</summary>
    public MatcherCounters Counters { get; } = new();

    /// <summary>The engine (after start). Only for tests and diagnostics once the matcher has stopped.</summary>
    internal VenueEngine? Engine => _engine;

    /// <summary>Commands recovered from the journal at start.</summary>
    public long RecoveredCommands { get; private set; }

    /// <summary>Reports the replay stored for sessions whose stores lacked them (the venue had stopped in between).</summary>
    public long RecoveredReports { get; private set; }

    /// <summary>What opening the journal found (after start).</summary>
    internal JournalScan JournalScan { get; private set; }

    /// <summary>The trading day the venue is in (after start): <see cref="TradingDayCalendar.DayOf"/> numbering.</summary>
    internal long TradingDay => _tradingDay?.CurrentDay ?? long.MinValue;

    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "The JIT build loads strategy plugins by design; NativeAOT builds pass an engine factory.")]
    [UnconditionalSuppressMessage("AOT", "IL3050", Justification = "As above.")]
    public Task StartAsync(CancellationToken cancellationToken)
    {
        try
        {
            Start();
        }
        catch
        {
            Cleanup();
            throw;
        }

        return Task.CompletedTask;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (Interlocked.Exchange(ref _stopped, 1) != 0)
        {
            return;
        }

        LogStopping(_logger);
        if (_listener is not null)
        {
            await _listener.DisposeAsync().ConfigureAwait(false);
            _listener = null;
        }

        // Stop taking orders (later ones are rejected as the venue stopping), then let the pipeline finish what it
        // accepted while the sessions are still logged on: every accepted order's report goes out before the Logout,
        // instead of only into the session store.
        _ingress?.StopAccepting(LogoutTimeout);
        await WaitForPipelineDrainedAsync(DrainTimeout).ConfigureAwait(false);
        if (_gateway is not null)
        {
            try
            {
                await _gateway.LogoutAllAsync("venue shutting down", LogoutTimeout).ConfigureAwait(false);
            }
#pragma warning disable CA1031 // A failed logout must not skip draining the rings and closing the journal.
            catch (Exception exception)
#pragma warning restore CA1031
            {
                LogLogoutFailed(_logger, exception);
            }
        }

        await _connectionsStop.CancelAsync().ConfigureAwait(false);
        _poller?.CloseAll();
        try
        {
            await Task.WhenAll(_connections.Values).WaitAsync(LogoutTimeout, CancellationToken.None).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            LogConnectionsLingering(_logger, _connections.Count);
        }

        Cleanup();
        LogStopped(_logger, Counters.Orders, Counters.Trades, Counters.Rejects);
    }

    /// <summary>
    /// Waits until the rings' consumers (journaller, matcher, sender; their own threads or the polling thread) have
    /// passed every published slot. The matcher publishes a command's events before it moves past the command, so an
    /// empty inbound ring seen before an empty outbound ring means every report has been handed to its session.
    /// </summary>
    private async Task WaitForPipelineDrainedAsync(TimeSpan timeout)
    {
        long deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        while ((_inbound?.Occupancy ?? 0) != 0 || (_outbound?.Occupancy ?? 0) != 0)
        {
            if (Stopwatch.GetTimestamp() >= deadline)
            {
                LogDrainIncomplete(_logger, "inbound or outbound, before logout");
                return;
            }

            await Task.Delay(1).ConfigureAwait(false);
        }
    }

    /// <summary>
    /// Journals and runs a <see cref="CommandType.ReserveEventIds"/> command when <paramref name="through"/> is above 0:
    /// a session store holds reports of events the journal lost, so new events are numbered past them (their ExecIDs
    /// would repeat otherwise). Journalled, so every later replay numbers events the same way.
    /// </summary>
    private void ReserveEventIds(long through)
    {
        if (through <= 0)
        {
            return;
        }

        var command = new Command { Type = CommandType.ReserveEventIds, Quantity = through, Timestamp = _clock.UtcNowNanos };
        if (!_ingress!.TryPublish(in command))
        {
            throw new InvalidOperationException("The venue could not journal the reservation of event ids at start.");
        }

        LogEventIdsReserved(_logger, through);
    }

    /// <summary>Releases what a failed or skipped stop left behind (the host disposes services after stopping them).</summary>
    public void Dispose()
    {
        Cleanup();
        _connectionsStop.Dispose();
    }

    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    [RequiresDynamicCode("Builds the engine from plugins unless an engine factory is given.")]
    [RequiresUnreferencedCode("Builds the engine from plugins unless an engine factory is given.")]
    private void Start()
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
        _ingress.ContinueAfter(Recover(books, _gateway, instruments, out long? latestReplayedTimestamp, out long reserveEventIdsThrough));
        _gate = new DurabilityGate(_journal!.DurableSequence);
        Counters.ClOrdIdsUsed(_engine.Engine.ClOrdIdsUsedToday);
        _tradingDay = new TradingDayRoller(
            TradingDayCalendar.FromOptions(_options.TradingDay), _clock, _ingress, _loggerFactory.CreateLogger<TradingDayRoller>());

        _metrics = new VenueMetrics(Counters, _meterFactory);
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
            // for it, so each idle pass takes at most one.
            bool PrepareWhileIdle() => journal.PrepareNextRecord() || gateway.PrepareWhileIdle();

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
        ReserveEventIds(reserveEventIdsThrough);
        _tradingDay.StartAfterReplay(latestReplayedTimestamp);
        _poller?.Start();

        _marketData.Start(_gateway);

        WarmUp(instruments);
        var endPoint = new IPEndPoint(IPAddress.Parse(_options.Listen.Address), _options.Listen.Port);
        _listener = new SocketListener(endPoint, OnAccepted);
        _listener.Start();
        IPEndPoint bound = _listener.LocalEndPoint;
        if (_poller is null)
        {
            // Threaded: periodic work on a timer; Inline runs it on the polling thread (ConnectionPoller.Periodic).
            _pollTimer = new Timer(_ => RunPeriodic(gateway), null, TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(200));
        }

        LogListening(_logger, bound.Address.ToString(), bound.Port, _engine.Description, pipeline.Mode, pipeline.MatcherWait);
        _endpoint.SetBound(bound);
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
    /// Opens the journal and replays it into the engine, handing every event to <paramref name="gateway"/> so each
    /// session stores the reports its store lacks; returns the last journalled sequence (-1 when empty) and the
    /// greatest command timestamp replayed (null when empty), which says which trading day the journal ends in. The
    /// journal is opened with the configured instruments and sessions, so one written under another order is refused.
    /// </summary>
    /// <param name="reserveEventIdsThrough">
    /// Above 0 when a session store holds reports of events past the journal's end: new events must be numbered above
    /// it (see <see cref="ReserveEventIds"/>).
    /// </param>
    private long Recover(BookPublisher books, IFixGateway gateway, IReadOnlyList<Instrument> instruments, out long? latestTimestamp, out long reserveEventIdsThrough)
    {
        string path = Path.GetFullPath(_options.Journal.Path);
        string? directory = Path.GetDirectoryName(path);
        if (!string.IsNullOrEmpty(directory))
        {
            Directory.CreateDirectory(directory);
        }

        var journalOptions = new Journal.JournalOptions
        {
            FsyncPolicy = Enum.Parse<FsyncPolicy>(_options.Journal.Fsync, ignoreCase: true),
            FsyncInterval = TimeSpan.FromMilliseconds(_options.Journal.FsyncIntervalMilliseconds),
        };

        // One pass over the journal: every valid record is replayed into the engine as the writer's open scans it.
        long started = Stopwatch.GetTimestamp();
        long replayed = 0;
        long reports = 0;
        long lastEventId = 0;
        long latest = long.MinValue;
        VenueEngine engine = _engine!;
        var configuration = new JournalConfiguration(
            instruments,
            _options.Sessions.Select(s => new JournalSession(s.SenderCompId, s.TargetCompId)).ToArray(),
            _options.Pipeline.MaxClOrdIdsPerDay);
        _journal = JournalWriter.Open(path, journalOptions, configuration, (long sequence, in Command command) =>
        {
            if (command.Sequence != sequence)
            {
                throw new InvalidDataException($"Journal '{path}': record {sequence} holds a command numbered {command.Sequence}.");
            }

            foreach (ref readonly EngineEvent engineEvent in engine.Engine.Process(in command))
            {
                if (gateway.RecoverEvent(in engineEvent))
                {
                    reports++;
                }

                lastEventId = engineEvent.EventId;
            }

            latest = Math.Max(latest, command.Timestamp);
            replayed++;
        }, out JournalScan scan);
        long highestStored = gateway.CompleteRecovery(lastEventId);
        reserveEventIdsThrough = highestStored > lastEventId ? highestStored : 0;
        JournalScan = scan;
        if (scan.Status == JournalReadStatus.Clean)
        {
            LogJournalOpened(_logger, path, scan.Describe());
        }
        else
        {
            LogJournalDropped(_logger, path, scan.Describe());
        }

        books.PublishAll(scan.LastSequence);
        RecoveredCommands = replayed;
        RecoveredReports = reports;
        latestTimestamp = replayed == 0 ? null : latest;
        LogReplayed(_logger, replayed, Stopwatch.GetElapsedTime(started).TotalMilliseconds, _engine!.Engine.RestingOrderCount, reports);
        return scan.LastSequence;
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
        _gate?.Abort();
        _lifetime?.StopApplication();
    }

    private void OnProcessorFault(EventProcessor processor, Exception exception)
    {
        LogProcessorFault(_logger, processor.Name, exception);
        if (ReferenceEquals(processor, _journaller))
        {
            // Nothing more becomes durable: release the sender (it drops what it cannot acknowledge).
            _gate?.Abort();
        }

        _lifetime?.StopApplication();
    }

    /// <summary>Stops whatever was started, in dependency order; safe to call more than once and after a failed start.</summary>
    private void Cleanup()
    {
        if (_pollTimer is not null)
        {
            // Wait for a poll in progress: the gateway is disposed below.
            using var pollDone = new ManualResetEvent(false);
            if (_pollTimer.Dispose(pollDone))
            {
                pollDone.WaitOne(LogoutTimeout);
            }

            _pollTimer = null;
        }

        if (_listener is not null)
        {
            _listener.DisposeAsync().AsTask().GetAwaiter().GetResult();
            _listener = null;
        }

        _ingress?.StopAccepting(LogoutTimeout);

        // A thread that does not end in time may still be writing through the journal's or a session store's memory
        // map: unmapping under it would crash the process at its next write. Such resources are left to the process
        // exit instead (the mapped pages are in the page cache, so what was written still reaches the files; only the
        // final trim and flush are skipped, and recovery reads the zeroed tail as the clean end).
        bool pollerRunning = false;
        bool connectionTasks = _poller is null; // Polled connections are served by the polling thread, not tasks.
        if (_poller is not null)
        {
            // Inline: the polling thread drains both rings itself before it ends.
            if (!_poller.Stop(DrainTimeout))
            {
                LogDrainIncomplete(_logger, "inbound");
                _gate?.Abort();
                pollerRunning = true;
            }

            if (_poller.Passes is { } passes)
            {
                LogPollerPasses(_logger, passes.PassesOver(0), passes.SlowPassMilliseconds, passes.PassesOver(1), passes.PassesOver(2));
            }

            _poller = null;
        }

        bool journallerRunning = pollerRunning;
        if (_inbound is not null)
        {
            bool drained = _inbound.DrainAndStop(DrainTimeout);
            if (!drained || _journaller?.Fault is not null)
            {
                LogDrainIncomplete(_logger, "inbound");
                _gate?.Abort();
            }

            journallerRunning |= !drained && _journaller is not null && !_journaller.Join(TimeSpan.Zero);
            _inbound = null;
        }

        bool senderRunning = pollerRunning;
        if (_outbound is not null)
        {
            if (!_outbound.DrainAndStop(DrainTimeout))
            {
                LogDrainIncomplete(_logger, "outbound");
                _gate?.Abort();
                senderRunning |= !_outbound.Halt(DrainTimeout);
            }

            _outbound = null;
        }

        if (journallerRunning)
        {
            LogLeftOpen(_logger, "the journal", "the journaller");
        }
        else
        {
            _journal?.Dispose();
        }

        _journal = null;
        bool publisherRunning = _marketData is not null && !_marketData.Stop(DrainTimeout);
        _marketData = null;

        // Last user of the gateway gone (sender, market data, timer, connections): close its session stores (flushes
        // sequence numbers).
        if (senderRunning || publisherRunning || (connectionTasks && !_connections.IsEmpty))
        {
            string users = senderRunning ? "the sender" : publisherRunning ? "the market-data publisher" : $"{_connections.Count} connections";
            LogLeftOpen(_logger, "the session stores", users);
        }
        else
        {
            (_gateway as IDisposable)?.Dispose();
        }

        _gateway = null;
        _metrics?.Dispose();
        _metrics = null;
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Exchange venue listening on {Address}:{Port} ({Strategies}, {Mode} pipeline, matcher wait {MatcherWait})")]
    private static partial void LogListening(ILogger logger, string address, int port, string strategies, string mode, string matcherWait);

    [LoggerMessage(Level = LogLevel.Information, Message = "Pre-faulted {Megabytes} MiB of engine tables and rings in {Milliseconds:F0} ms (Venue:Pipeline:PreFault; in-memory session stores are written through as they are created)")]
    private static partial void LogPreFaulted(ILogger logger, long megabytes, double milliseconds);

    [LoggerMessage(Level = LogLevel.Information, Message = "Journal {Path}: {Scan}")]
    private static partial void LogJournalOpened(ILogger logger, string path, string scan);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Journal {Path}: {Scan}")]
    private static partial void LogJournalDropped(ILogger logger, string path, string scan);

    [LoggerMessage(Level = LogLevel.Information, Message = "Replayed {Count} journalled commands in {Milliseconds:F1} ms; {Resting} orders resting; {Reports} reports stored for sessions that lacked them")]
    private static partial void LogReplayed(ILogger logger, long count, double milliseconds, int resting, long reports);

    [LoggerMessage(Level = LogLevel.Information, Message = "Polling thread since start: {Over100Us} passes over 100 us ({Milliseconds:F1} ms in all), {Over1Ms} over 1 ms, {Over10Ms} over 10 ms")]
    private static partial void LogPollerPasses(ILogger logger, long over100Us, double milliseconds, long over1Ms, long over10Ms);

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

    [LoggerMessage(Level = LogLevel.Error, Message = "The {Ring} ring did not drain in time; unsent reports were dropped")]
    private static partial void LogDrainIncomplete(ILogger logger, string ring);

    [LoggerMessage(Level = LogLevel.Error, Message = "Left open until the process exits: {Resource}, because {User} has not stopped and may still write there")]
    private static partial void LogLeftOpen(ILogger logger, string resource, string user);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Session stores hold reports of events up to {EventId} that the journal lost; new events are numbered above it")]
    private static partial void LogEventIdsReserved(ILogger logger, long eventId);

    [LoggerMessage(Level = LogLevel.Error, Message = "Logging sessions out failed")]
    private static partial void LogLogoutFailed(ILogger logger, Exception exception);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Count} connections still open after logout; closing them")]
    private static partial void LogConnectionsLingering(ILogger logger, int count);

    [LoggerMessage(Level = LogLevel.Information, Message = "Exchange venue stopping")]
    private static partial void LogStopping(ILogger logger);

    [LoggerMessage(Level = LogLevel.Information, Message = "Exchange venue stopped: {Orders} orders, {Trades} trades, {Rejects} rejects")]
    private static partial void LogStopped(ILogger logger, long orders, long trades, long rejects);
}
