using Exchange.Host.Pipeline;

namespace Exchange.Host.Venue;

/// <summary>
/// Lets the sender wait until the journal has made a command safe (<see cref="Journal.JournalWriter.DurableSequence"/>)
/// before its ExecutionReports leave: an acknowledged order is always in the journal.
/// </summary>
/// <remarks>
/// <para>The durable sequence lives on the inbound side while the sender consumes the outbound ring, so ring
/// dependencies cannot express this gate. The sender waits in the manner of its configured wait strategy; with
/// Blocking it sleeps on a monitor that the journaller pulses after each commit (<see cref="Advanced"/>).</para>
/// <para>Lost wake-ups are impossible for the same reason as in <see cref="PublicationSignal"/>: the waiter increments
/// the waiter count (full fence) before re-reading the durable sequence, and the journaller publishes the sequence,
/// fences, then reads the count; the waiter only releases the lock inside <see cref="Monitor.Wait(object)"/>.</para>
/// <para>Threading: one writer (the journaller thread calls <see cref="Advanced"/>), any number of waiters.</para>
/// </remarks>
internal sealed class DurabilityGate
{
    private readonly Sequence _durable;
    private readonly object _lock = new();
    private int _waiters;
    private int _aborted;

    // The latest commit the journaller reported: when (Stopwatch ticks) and how far it made the journal durable.
    // Written time first, then sequence; read sequence first, then time (see CommitTimeOf).
    private long _committedAt;
    private long _committedThrough = -1;

    public DurabilityGate(Sequence durable) => _durable = durable;

    public long DurableSequence => _durable.Value;

    /// <summary>True once <see cref="Abort"/> was called: nothing more will become durable.</summary>
    public bool IsAborted => Volatile.Read(ref _aborted) != 0;

    /// <summary>
    /// Journaller thread, after a commit moved the durable sequence: records when (for the reports' stage stamps, see
    /// <see cref="CommitTimeOf"/>) and wakes blocked waiters, if any.
    /// </summary>
    /// <param name="timestamp">Stopwatch ticks, taken once the commit returned.</param>
    public void Advanced(long timestamp)
    {
        Volatile.Write(ref _committedAt, timestamp);
        Volatile.Write(ref _committedThrough, _durable.Value);
        Interlocked.MemoryBarrier();
        if (Volatile.Read(ref _waiters) != 0)
        {
            WakeAll();
        }
    }

    /// <summary>
    /// When the commit that made <paramref name="sequence"/> durable returned, for a sequence <see cref="WaitFor"/>
    /// found durable: exact when no later commit has been reported since (always in Inline mode, where the journaller
    /// commits once per pass before the sender runs); otherwise the time of a later commit, or
    /// <paramref name="fallback"/> when the journaller has not reported this commit yet. Never earlier than the commit.
    /// </summary>
    public long CommitTimeOf(long sequence, long fallback)
    {
        long through = Volatile.Read(ref _committedThrough);
        long at = Volatile.Read(ref _committedAt);
        return through >= sequence ? at : fallback;
    }

    /// <summary>The journal failed or stopped for good: release every waiter with "not durable".</summary>
    public void Abort()
    {
        Volatile.Write(ref _aborted, 1);
        WakeAll();
    }

    /// <summary>Waits until <paramref name="sequence"/> is durable; false when the gate was aborted first.</summary>
    public bool WaitFor(long sequence, WaitStrategyKind kind) =>
        _durable.Value >= sequence || WaitSlow(sequence, kind);

    private bool WaitSlow(long sequence, WaitStrategyKind kind)
    {
        // Blocking spins like the others' first phase, then sleeps on the monitor; the others back off like their
        // processors do (IdleStrategy).
        bool blocking = kind == WaitStrategyKind.Blocking;
        var idle = new IdleStrategy(blocking ? WaitStrategyKind.BusySpin : kind);
        int tries = 0;
        while (true)
        {
            if (_durable.Value >= sequence)
            {
                return true;
            }

            if (IsAborted)
            {
                return false;
            }

            if (blocking && ++tries > IdleStrategy.SpinPasses)
            {
                Block(sequence);
            }
            else
            {
                idle.Idle(didWork: false);
            }
        }
    }

    private void Block(long sequence)
    {
        lock (_lock)
        {
            Interlocked.Increment(ref _waiters);
            try
            {
                while (_durable.Value < sequence && !IsAborted)
                {
                    Monitor.Wait(_lock);
                }
            }
            finally
            {
                Interlocked.Decrement(ref _waiters);
            }
        }
    }

    private void WakeAll()
    {
        lock (_lock)
        {
            Monitor.PulseAll(_lock);
        }
    }
}
