using System.Diagnostics;
using System.Net.Sockets;
using Exchange.LoadClient.Measurement;
using Exchange.LoadClient.Options;
using Exchange.LoadClient.Orders;
using Exchange.LoadClient.Session;

namespace Exchange.LoadClient.Runs;

/// <summary>
/// One run: connect, log on, pre-populate the book, send the warm-up and measured flow in the chosen mode, wait for
/// every acknowledgement, log out, and report.
/// </summary>
/// <remarks>
/// Threads: sync mode, and every mode with busy-poll reads, read on the sending thread (no hand-off per round trip, no
/// second spinning thread); otherwise one reader thread. The sender waits for acknowledgements by yielding (window full) or sleeping (final drain), never by
/// spinning hard, because the venue shares this machine's two cores.
/// </remarks>
internal sealed class LoadRunner
{
    private readonly LoadClientOptions _options;
    private readonly TextWriter _out;
    private readonly long _flowOrders;
    private readonly long _warmup;
    private FixClientSession? _session;
    private ReplyReader? _reader;
    private OrderTracker? _tracker;
    private OrderSender? _sender;
    private Thread? _readerThread;
    private volatile bool _stopReader;

    public LoadRunner(LoadClientOptions options, TextWriter output)
    {
        _options = options ?? throw new ArgumentNullException(nameof(options));
        _out = output ?? throw new ArgumentNullException(nameof(output));
        _warmup = options.EffectiveWarmup;
        _flowOrders = _warmup + options.EffectiveOrders;
    }

    // Sync mode, and every mode with busy-poll reads, reads on the sending thread: on a small machine a second
    // spinning client thread would take the core the venue needs.
    private bool ReaderThreadMode => _options.Mode != LoadMode.Sync && !_options.BusyPoll;

    private bool Scheduled => _options.Mode == LoadMode.Rate || (_options.Mode == LoadMode.Mixed && _options.Rate > 0);

    /// <summary>Runs and prints the report; the exit code is 0 when every order was acknowledged.</summary>
    public int Run()
    {
        string runId = _options.RunId ?? ClOrdIdCodec.RunIdFrom(DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() / 10);
        var clOrdIds = new ClOrdIdCodec(runId);
        long highest = StageBreakdown.HighestTrackableTicks(60);
        _tracker = new OrderTracker(
            _flowOrders, _options.Prepopulate, _warmup, _options.Mode == LoadMode.Mixed ? _options.LatencyEvery : 1, Scheduled, highest);

        Socket socket;
        try
        {
            socket = FixClientSession.Connect(_options.Host, _options.Port, _options.BusyPoll);
        }
        catch (SocketException e)
        {
            _out.WriteLine($"error: cannot connect to {_options.Host}:{_options.Port}: {e.Message}");
            return 2;
        }

        if (!_options.BusyPoll)
        {
            // Blocking reads wake up at least once a second so loops can check deadlines and the stop flag.
            socket.ReceiveTimeout = 1000;
        }

        using var session = new FixClientSession(socket, _options.SenderCompId, _options.TargetCompId, _options.BusyPoll);
        _session = session;
        _reader = new ReplyReader(session, _tracker, clOrdIds);
        _sender = new OrderSender(session, _tracker, new OrderFlow(_options.MidPrice, _options.Tick, _options.Levels), clOrdIds, _options);

        _out.WriteLine($"run {runId}: {_options.Mode} mode, {_options.EffectiveOrders} orders + {_warmup} warm-up, " +
            $"{_options.Prepopulate} pre-populated, {_options.Symbol} @ {_options.Host}:{_options.Port} as {_options.SenderCompId}->{_options.TargetCompId}, " +
            $"{(_options.BusyPoll ? "busy-poll" : "blocking")} reads");

        session.SendLogon(_options.HeartBtInt);
        if (!Pump(() => session.IsLoggedOn || session.LogoutReceived, _options.TimeoutSeconds * 1000) || !session.IsLoggedOn)
        {
            _out.WriteLine($"error: no Logon reply{(session.LastSessionText is { } text ? $" (venue said: {text})" : string.Empty)}");
            return 2;
        }

        if (ReaderThreadMode)
        {
            _readerThread = new Thread(ReaderLoop) { IsBackground = true, Name = "fix-reader" };
            _readerThread.Start();
        }

        bool complete;
        try
        {
            complete = Prepopulate() && SendFlow() && AwaitFlowAcks();
        }
        catch (SocketException e)
        {
            // The venue closed the connection, e.g. its per-session send backlog bound was exceeded (it says so in a Logout).
            _out.WriteLine($"error: connection lost while sending: {e.Message}{(session.LastSessionText is { } text ? $" (venue said: {text})" : string.Empty)}");
            complete = false;
        }

        LogOut();
        new ReportWriter(_options, _out).Write(_tracker, _reader, _sender, _warmup, complete);
        return complete ? 0 : 1;
    }

    private bool Prepopulate()
    {
        int total = _options.Prepopulate;
        long sent = 0;
        while (sent < total)
        {
            int count = (int)Math.Min(Math.Min(_options.Batch, total - sent), _options.Window);
            _sender!.SendBatch(OrderKind.Prepopulate, sent, count);
            sent += count;
            long target = sent;
            if (!Pump(() => target - _tracker!.PrepopulateAcked < _options.Window || _tracker.PrepopulateAcked >= target, _options.TimeoutSeconds * 1000))
            {
                _out.WriteLine("error: pre-population was not acknowledged in time");
                return false;
            }
        }

        if (!Pump(() => _tracker!.PrepopulateAcked >= total, _options.TimeoutSeconds * 1000))
        {
            _out.WriteLine($"error: {total - _tracker!.PrepopulateAcked} pre-populated orders not acknowledged");
            return false;
        }

        // Start measuring from a clean heap: the setup allocated, the flow does not.
        GC.Collect();
        GC.WaitForPendingFinalizers();
        return true;
    }

    private bool SendFlow()
    {
        switch (_options.Mode)
        {
            case LoadMode.Sync:
                return SendSync();
            case LoadMode.Rate:
                return SendScheduled();
            case LoadMode.Mixed when _options.Rate > 0:
                return SendScheduled();
            default:
                return SendPipelined();
        }
    }

    private bool SendSync()
    {
        ReplyReader reader = _reader!;
        OrderTracker tracker = _tracker!;
        long timeoutTicks = Stopwatch.Frequency * _options.TimeoutSeconds;
        for (long n = 0; n < _flowOrders; n++)
        {
            _sender!.SendOne(OrderKind.Flow, n, 0);
            long sentAt = tracker.SentAt(n);
            while (!tracker.IsAcked(n))
            {
                int read = reader.ReadOnce();
                if (read < 0)
                {
                    _out.WriteLine($"error: connection closed while waiting for order {n}");
                    return false;
                }

                if (read == 0 && Stopwatch.GetTimestamp() - sentAt > timeoutTicks)
                {
                    _out.WriteLine($"error: no ExecutionReport for order {n} within {_options.TimeoutSeconds} s");
                    return false;
                }
            }
        }

        return true;
    }

    /// <remarks>
    /// Orders go out at their planned times. A sender that fell behind (its thread lost the CPU) sends every order
    /// already due in one socket write, up to --batch, rather than one write each, so it catches up at the socket's
    /// speed. On one thread, replies are read between every two sends, including while catching up: a reply left unread
    /// behind the sends would be timed as slow when the venue was not.
    /// </remarks>
    private bool SendScheduled()
    {
        var schedule = new RateSchedule(Stopwatch.GetTimestamp() + (Stopwatch.Frequency / 1000), _options.Rate, Stopwatch.Frequency);
        long yieldAbove = Stopwatch.Frequency / 5_000; // 200 µs
        OrderSender sender = _sender!;
        ReplyReader reader = _reader!;
        long n = 0;
        while (n < _flowOrders)
        {
            long now = Stopwatch.GetTimestamp();

            // The cheap test first: most passes of a polling client find the next order not yet due.
            long due = now < schedule.IntendedTicks(n) ? n : Math.Min(schedule.DueBy(now), _flowOrders);
            if (due > n)
            {
                int count = (int)Math.Min(due - n, _options.Batch);
                if (count == 1)
                {
                    sender.SendOne(OrderKind.Flow, n, schedule.IntendedTicks(n));
                }
                else
                {
                    sender.SendBatch(OrderKind.Flow, n, count, schedule);
                }

                n += count;
            }
            else if (_readerThread is not null)
            {
                RateSchedule.WaitUntil(schedule.IntendedTicks(n), yieldAbove, yieldWhileSpinning: true);
            }

            if (_readerThread is null && reader.ReadOnce() < 0)
            {
                _out.WriteLine($"error: connection closed after {n} orders were sent");
                return false;
            }
        }

        return true;
    }

    private bool SendPipelined()
    {
        OrderSender sender = _sender!;
        OrderTracker tracker = _tracker!;
        ReplyReader reader = _reader!;
        bool readHere = _readerThread is null;
        long n = 0;
        var spin = default(SpinWait);
        while (n < _flowOrders)
        {
            // One thread: take in whatever replies have arrived between batches (never waits).
            if (readHere && reader.ReadOnce() < 0)
            {
                _out.WriteLine("error: connection closed while sending");
                return false;
            }

            long room = _options.Window - (n - tracker.FlowAcked);
            if (room <= 0)
            {
                if (reader.Closed)
                {
                    _out.WriteLine("error: connection closed while sending");
                    return false;
                }

                if (!readHere)
                {
                    spin.SpinOnce(sleep1Threshold: -1);
                }

                continue;
            }

            int count = (int)Math.Min(Math.Min(room, _options.Batch), _flowOrders - n);
            sender.SendBatch(OrderKind.Flow, n, count);
            n += count;
            spin.Reset();
        }

        return true;
    }

    private bool AwaitFlowAcks()
    {
        if (Pump(() => _tracker!.FlowAcked >= _flowOrders, _options.TimeoutSeconds * 1000))
        {
            return true;
        }

        _out.WriteLine($"error: {_flowOrders - _tracker!.FlowAcked} orders not acknowledged within {_options.TimeoutSeconds} s");
        return false;
    }

    private void LogOut()
    {
        FixClientSession session = _session!;
        if (!_reader!.Closed && !session.LogoutReceived)
        {
            try
            {
                session.SendLogout();
                Pump(() => session.LogoutReceived, 5_000);
            }
            catch (SocketException e)
            {
                _out.WriteLine($"warning: logout failed: {e.Message}");
            }
        }

        _stopReader = true;
        try
        {
            session.Socket.Shutdown(SocketShutdown.Both);
        }
        catch (SocketException)
        {
            // Already closed by the venue after its Logout.
        }

        _readerThread?.Join();
    }

    /// <summary>
    /// Waits until <paramref name="done"/> holds: by reading on this thread (sync mode, before the reader thread
    /// starts) or by yielding then sleeping while the reader thread works. False on timeout or a closed connection.
    /// </summary>
    private bool Pump(Func<bool> done, int timeoutMilliseconds)
    {
        long deadline = Stopwatch.GetTimestamp() + (Stopwatch.Frequency * timeoutMilliseconds / 1000);
        var spin = default(SpinWait);
        while (!done())
        {
            if (Stopwatch.GetTimestamp() > deadline)
            {
                return false;
            }

            if (_readerThread is null)
            {
                if (_reader!.ReadOnce() < 0)
                {
                    return done();
                }
            }
            else if (_reader!.Closed)
            {
                return done();
            }
            else
            {
                spin.SpinOnce();
            }
        }

        return true;
    }

    private void ReaderLoop()
    {
        ReplyReader reader = _reader!;
        try
        {
            while (!_stopReader)
            {
                int read = reader.ReadOnce();
                if (read < 0)
                {
                    return;
                }

                if (read == 0 && _options.BusyPoll)
                {
                    Thread.SpinWait(1);
                }
            }
        }
        catch (SocketException e)
        {
            // An admin reply (heartbeat, gap fill) hit a closed socket: the run ends with missing acknowledgements.
            _out.WriteLine($"warning: reader stopped: {e.Message}");
        }
        catch (ObjectDisposedException)
        {
            // The socket was disposed during shutdown.
        }
    }
}
