using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net.Sockets;
using Exchange.Fix.Gateway;
using Exchange.Host.Metrics;
using Exchange.Host.Network;
using Exchange.Host.Pipeline;
using Exchange.Host.Threading;

namespace Exchange.Host.Venue;

/// <summary>
/// The one thread of <see cref="PipelineMode.Inline"/>: each pass reads every connection without blocking and feeds
/// the bytes to its FIX reader (which publishes orders into the inbound ring), runs the <see cref="InlinePipeline"/>
/// (journal, match, encode reports), then sends each connection's pending output in one system call. An order's path
/// from socket to socket never changes thread.
/// </summary>
/// <remarks>
/// <para>Threading: <see cref="Attach"/>, <see cref="CloseAll"/> and <see cref="Stop"/> from any thread; everything
/// else on the polling thread. Sockets arrive through a queue and are wrapped on the polling thread, which owns the
/// connection list.</para>
/// <para>Failures: an exception from one connection's FIX reader (a bug) is reported and ends that connection only; one
/// from the pipeline (journal, engine) is reported through <c>onFault</c> and ends the loop, as a processor thread
/// fault ends the threaded pipeline, also when it surfaces inside a connection's read (its publish drained a full
/// ring) or a timer (see <see cref="InlinePipeline.Fault"/>).</para>
/// </remarks>
internal sealed class ConnectionPoller
{
    private static readonly TimeSpan CloseTimeout = TimeSpan.FromSeconds(1);

    private readonly IFixGateway _gateway;
    private readonly InlinePipeline _pipeline;
    private readonly WaitStrategyKind _idle;
    private readonly int? _cpu;
    private readonly int _receiveBufferSize;
    private readonly Action<string, Exception> _onConnectionFault;
    private readonly Action<Exception> _onFault;
    private readonly ConcurrentQueue<Arrival> _arrivals = new();
    private readonly List<Attached> _attached = [];
    private Thread? _thread;
    private volatile bool _stopRequested;
    private volatile bool _closeAllRequested;
    private int _threadId = -1;

    public ConnectionPoller(
        IFixGateway gateway,
        InlinePipeline pipeline,
        WaitStrategyKind idle,
        int? cpu,
        int receiveBufferSize,
        Action<string, Exception> onConnectionFault,
        Action<Exception> onFault)
    {
        _gateway = gateway;
        _pipeline = pipeline;
        _idle = idle;
        _cpu = cpu;
        _receiveBufferSize = receiveBufferSize;
        _onConnectionFault = onConnectionFault;
        _onFault = onFault;
    }

    /// <summary>Called on the polling thread after pinning was attempted; for logging the outcome.</summary>
    public Action<AffinityResult>? PinHandler { get; set; }

    /// <summary>
    /// Work the polling thread runs every <see cref="PeriodicInterval"/> between passes (the gateway's session timers),
    /// so in Inline mode no other thread takes the sessions' locks or wakes up on the polling thread's CPU.
    /// </summary>
    public Action? Periodic { get; set; }

    public TimeSpan PeriodicInterval { get; set; } = TimeSpan.FromMilliseconds(200);

    /// <summary>Where each pass's duration goes (metrics); null: not timed.</summary>
    public PollerPasses? Passes { get; set; }

    /// <summary>The polling thread's managed id (flushes on it are deferred to the end of the pass); -1 before it runs.</summary>
    public int ThreadId => Volatile.Read(ref _threadId);

    public void Start()
    {
        _thread = new Thread(Run) { IsBackground = true, Name = "poller" };
        _thread.Start();
        while (ThreadId < 0)
        {
            Thread.Yield();
        }
    }

    /// <summary>Hands an accepted socket to the polling thread; the task completes once the connection has closed.</summary>
    public Task Attach(Socket socket, long id)
    {
        var arrival = new Arrival(socket, id, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
        _arrivals.Enqueue(arrival);
        if (_stopRequested)
        {
            // Raced with Stop: the loop may already be gone.
            CloseArrivals();
        }

        return arrival.Closed.Task;
    }

    /// <summary>Asks the polling thread to close every connection (shutdown, after the sessions were logged out).</summary>
    public void CloseAll() => _closeAllRequested = true;

    /// <summary>
    /// Ends the loop: the polling thread runs the pipeline until it is empty, sends what is pending, closes every
    /// connection and exits. Call after producers stopped (no connection is read after this).
    /// </summary>
    /// <returns>False when the thread did not end within <paramref name="timeout"/>.</returns>
    public bool Stop(TimeSpan timeout)
    {
        _stopRequested = true;
        bool ended = _thread is null || _thread.Join(timeout);
        if (ended)
        {
            // The loop is gone (stopped or faulted): whatever it left is closed here.
            DetachAll("venue stopped");
            CloseArrivals();
        }

        return ended;
    }

    private void Run()
    {
        Volatile.Write(ref _threadId, Environment.CurrentManagedThreadId);
        if (_cpu is int cpu)
        {
            PinHandler?.Invoke(ThreadAffinity.PinCurrentThread(cpu));
        }

        var idle = new IdleStrategy(_idle);
        Action? periodic = Periodic;
        PollerPasses? passes = Passes;

        // A pass is timed from its start to the next pass's start, idling included: a busy-spinning thread idles for
        // nanoseconds, and losing the CPU while idling delays the next order as much as losing it while working. Other
        // idle strategies yield or sleep on purpose, so only passes that did work are timed then.
        bool timeIdlePasses = _idle == WaitStrategyKind.BusySpin;
        long periodTicks = (long)(PeriodicInterval.TotalSeconds * Stopwatch.Frequency);
        long passStart = Stopwatch.GetTimestamp();
        long nextPeriodic = passStart + periodTicks;
        bool previousDidWork = false;
        try
        {
            while (!_stopRequested)
            {
                long now = Stopwatch.GetTimestamp();
                if (passes is not null && (previousDidWork || timeIdlePasses))
                {
                    passes.Observe(now - passStart);
                }

                passStart = now;
                bool didWork = AdoptArrivals();
                didWork |= ReadAll();
                didWork |= _pipeline.RunOnce() != 0;
                if (periodic is not null && now >= nextPeriodic)
                {
                    // Before SendAll, so what the timers write (heartbeats, test requests) leaves in this pass.
                    periodic();
                    nextPeriodic = now + periodTicks;
                }

                SendAll();
                if (_closeAllRequested)
                {
                    DetachAll("venue is stopping");
                }

                if (!didWork)
                {
                    // Counts as work: the pass took time, and the idle strategy should not sleep right after it.
                    didWork = _pipeline.PrepareWhileIdle();
                }

                idle.Idle(didWork);
                previousDidWork = didWork;
            }

            _pipeline.RunUntilIdle();
            SendAll();
        }
#pragma warning disable CA1031 // A pipeline bug must not tear the process down silently: report it and stop the loop.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            _onFault(exception);
        }
    }

    private bool AdoptArrivals()
    {
        bool any = false;
        while (_arrivals.TryDequeue(out Arrival arrival))
        {
            var connection = new PolledConnection(arrival.Socket, arrival.Id, ThreadId, _receiveBufferSize);
            _attached.Add(new Attached(connection, _gateway.Attach(connection), arrival.Closed));
            any = true;
        }

        return any;
    }

    private bool ReadAll()
    {
        bool any = false;
        for (int i = _attached.Count - 1; i >= 0; i--)
        {
            Attached attached = _attached[i];
            PolledConnection connection = attached.Connection;
            if (attached.Reader.CloseRequested)
            {
                Detach(i, "connection closing");
                continue;
            }

            ReceiveStatus status = connection.Receive();
            if (status == ReceiveStatus.NothingNew)
            {
                continue;
            }

            if (status == ReceiveStatus.Closed)
            {
                Detach(i, "connection ended");
                continue;
            }

            any = true;
            try
            {
                connection.Consume(attached.Reader.Process(connection.Received));
            }
#pragma warning disable CA1031 // One connection's failure is reported and ends that connection only.
            catch (Exception exception) when (_pipeline.Fault is null)
#pragma warning restore CA1031
            {
                // Not a pipeline fault surfacing through a publish that drained a full ring: that one ends the loop.
                _onConnectionFault(connection.RemoteEndPoint, exception);
                Detach(i, "connection failed");
            }
        }

        return any;
    }

    private void SendAll()
    {
        foreach (Attached attached in _attached)
        {
            attached.Connection.SendPending();
        }
    }

    private void DetachAll(string why)
    {
        _closeAllRequested = false;
        for (int i = _attached.Count - 1; i >= 0; i--)
        {
            Detach(i, why);
        }
    }

    private void Detach(int index, string why)
    {
        Attached attached = _attached[index];
        _attached.RemoveAt(index);
        try
        {
            attached.Reader.Detach(why);
        }
        finally
        {
            // Out of the list already: if ending its session threw, this is the last chance to close it.
            _ = CompleteWhenClosedAsync(attached.Connection, attached.Closed);
        }
    }

    private void CloseArrivals()
    {
        while (_arrivals.TryDequeue(out Arrival arrival))
        {
            arrival.Socket.Dispose();
            arrival.Closed.TrySetResult();
        }
    }

    private static async Task CompleteWhenClosedAsync(PolledConnection connection, TaskCompletionSource closed)
    {
        try
        {
            await connection.CloseAsync(CloseTimeout).ConfigureAwait(false);
        }
        finally
        {
            connection.Dispose();
            closed.TrySetResult();
        }
    }

    private readonly record struct Arrival(Socket Socket, long Id, TaskCompletionSource Closed);

    private readonly record struct Attached(PolledConnection Connection, IFixConnectionReader Reader, TaskCompletionSource Closed);
}
