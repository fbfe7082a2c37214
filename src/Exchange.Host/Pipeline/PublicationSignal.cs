namespace Exchange.Host.Pipeline;

/// <summary>
/// Wakes processors that block (the <see cref="WaitStrategyKind.Blocking"/> strategy) when a ring's state changes:
/// a slot was published, a consumer advanced (gated consumers wait on it), or a halt was requested.
/// </summary>
/// <remarks>
/// Cheap for publishers: a ring without blocking waiters never touches this object beyond one plain bool read
/// (<see cref="Enabled"/>). With blocking waiters registered, a publisher pays one full fence and one read per publish
/// and takes the lock only while some waiter may actually be asleep. The fence pairs with the waiter's interlocked
/// increment (a Dekker handshake): either the waiter sees the new state before sleeping, or the publisher sees the
/// waiter count and pulses under the lock, which the waiter only releases by entering <see cref="Monitor.Wait(object)"/>.
/// So no wakeup is lost and the wait needs no timeout.
/// </remarks>
internal sealed class PublicationSignal
{
    private readonly object _gate = new();
    private int _waiters;

    /// <summary>Set (before processors start) once a blocking strategy is attached to the ring.</summary>
    public bool Enabled { get; private set; }

    public void Enable() => Enabled = true;

    /// <summary>Called by publishers and processors after making progress visible.</summary>
    public void NotifyIfWaiting()
    {
        if (!Enabled)
        {
            return;
        }

        Interlocked.MemoryBarrier();
        if (Volatile.Read(ref _waiters) != 0)
        {
            WakeAll();
        }
    }

    /// <summary>Unconditional wake-up (halt requests), off the hot path.</summary>
    public void WakeAll()
    {
        lock (_gate)
        {
            Monitor.PulseAll(_gate);
        }
    }

    /// <summary>
    /// Blocks until the barrier has <paramref name="next"/> available or is told to stop, or for at most its
    /// <see cref="SequenceBarrier.IdleTimeoutMilliseconds"/>.
    /// </summary>
    /// <returns>The barrier's highest available sequence (below <paramref name="next"/> when stopping or timed out).</returns>
    public long WaitFor(long next, SequenceBarrier barrier)
    {
        lock (_gate)
        {
            Interlocked.Increment(ref _waiters);
            try
            {
                while (true)
                {
                    long available = barrier.HighestAvailable(next);
                    if (available >= next || barrier.IsStopRequested(next))
                    {
                        return available;
                    }

                    if (!Monitor.Wait(_gate, barrier.IdleTimeoutMilliseconds))
                    {
                        return barrier.HighestAvailable(next);
                    }
                }
            }
            finally
            {
                Interlocked.Decrement(ref _waiters);
            }
        }
    }
}
