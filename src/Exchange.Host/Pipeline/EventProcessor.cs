using Exchange.Host.Threading;

namespace Exchange.Host.Pipeline;

/// <summary>
/// A consumer of a ring running on its own dedicated thread; the non-generic face of
/// <see cref="BatchEventProcessor{T, THandler}"/> used for dependencies, lifecycle and monitoring.
/// </summary>
internal abstract class EventProcessor
{
    private readonly ManualResetEventSlim _stopped = new(false);
    private readonly int? _cpu;
    private Thread? _thread;

    protected EventProcessor(string name, SequenceBarrier barrier, int? cpu)
    {
        Name = name;
        Barrier = barrier;
        _cpu = cpu;
    }

    public string Name { get; }

    /// <summary>The last sequence this processor has finished; gates producers and dependent processors.</summary>
    public Sequence Sequence { get; } = new();

    internal SequenceBarrier Barrier { get; }

    /// <summary>The outcome of pinning the thread (null when no CPU was configured or before the thread ran).</summary>
    public AffinityResult? PinResult { get; private set; }

    /// <summary>The handler's exception that stopped this processor, if any (a bug: handlers report errors by code).</summary>
    public Exception? Fault { get; private set; }

    /// <summary>Called on the processor thread when a handler throws, before the processor stops; for logging.</summary>
    public Action<EventProcessor, Exception>? FaultHandler { get; set; }

    /// <summary>Called on the processor thread after pinning was attempted; for logging the outcome.</summary>
    public Action<EventProcessor, AffinityResult>? PinHandler { get; set; }

    public bool IsRunning => _thread is not null && !_stopped.IsSet;

    /// <summary>Work the processor's thread does when it has waited <see cref="SequenceBarrier.IdleTimeoutMilliseconds"/> for nothing.</summary>
    protected Action? IdleWork { get; private set; }

    /// <summary>
    /// Runs <paramref name="work"/> on the processor's thread whenever it has found nothing to consume for
    /// <paramref name="interval"/> (and again every interval while that lasts): work that belongs to the thread owning
    /// the handler's state, such as syncing a journal after the last batch before a pause. Call before <see cref="Start"/>.
    /// </summary>
    public void SetIdleWork(Action work, TimeSpan interval)
    {
        ArgumentNullException.ThrowIfNull(work);
        ArgumentOutOfRangeException.ThrowIfLessThan(interval, TimeSpan.FromMilliseconds(1));
        if (_thread is not null)
        {
            throw new InvalidOperationException($"Processor '{Name}' already started.");
        }

        IdleWork = work;
        Barrier.IdleTimeoutMilliseconds = (int)Math.Min(int.MaxValue, interval.TotalMilliseconds);
    }

    /// <summary>Starts the dedicated background thread. Call once, after the ring's processors are all added.</summary>
    public void Start()
    {
        if (_thread is not null)
        {
            throw new InvalidOperationException($"Processor '{Name}' was already started.");
        }

        _thread = new Thread(ThreadMain) { IsBackground = true, Name = Name };
        _thread.Start();
    }

    /// <summary>Stops after the batch in hand, leaving later published slots unprocessed.</summary>
    public void Halt() => Barrier.RequestHalt();

    /// <summary>Keeps processing until <paramref name="lastSequence"/> is processed, then stops (draining).</summary>
    public void StopAfter(long lastSequence) => Barrier.RequestStopAfter(lastSequence);

    /// <summary>Waits for the thread to end; false on timeout.</summary>
    public bool Join(TimeSpan timeout) => _thread is null || _stopped.Wait(timeout);

    /// <summary>
    /// Runs the handler on the calling thread over everything available now, without waiting; returns how many slots
    /// it processed. Only for a ring started with <see cref="SequenceRing{T}.StartInline"/>, where one thread drives
    /// every processor in turn instead of each having its own.
    /// </summary>
    public abstract int RunAvailable();

    /// <summary>The processing loop, run on the dedicated thread until a stop request is reached.</summary>
    protected abstract void Run();

    private void ThreadMain()
    {
        try
        {
            if (_cpu is int cpu)
            {
                AffinityResult result = ThreadAffinity.PinCurrentThread(cpu);
                PinResult = result;
                PinHandler?.Invoke(this, result);
            }

            Run();
        }
#pragma warning disable CA1031 // A handler bug must not tear the process down silently: record it, report it, stop.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            Fault = exception;
            FaultHandler?.Invoke(this, exception);
        }
        finally
        {
            _stopped.Set();
        }
    }
}
