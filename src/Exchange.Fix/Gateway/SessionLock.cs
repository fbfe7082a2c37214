using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Exchange.Fix.Gateway;

/// <summary>
/// Serialises every call into one session (<see cref="GatewaySession.Lock"/>): the connection's reads, the report
/// sender, the market-data publisher, the timers and the stop path. Held for microseconds, rarely contended.
/// </summary>
/// <remarks>
/// <para>Not <see cref="System.Threading.Lock"/>, for speed: with tiered compilation off (the venue's setting) the
/// runtime's lock runs as precompiled code whose thread-id lookup cost about 4 ns of a ~135 ns inbound order step
/// (docs/MEASUREMENTS.md). Here an uncontended enter is one compare-exchange, compiled into the caller.</para>
/// <para>Not re-entrant. A review traced every place that takes it and found none that can take it again on the same
/// thread; entering it twice is a bug, and throws rather than deadlocks. Keep it so: nothing run under the lock may
/// publish commands (the Inline pipeline would send reports, taking this lock) or call back into the gateway.</para>
/// <para>A waiter spins, then yields its CPU, and never sleeps: the holder is done within microseconds, except when a
/// store flush under the lock waits on the disk, and a sleeping waiter would add a millisecond to an order behind it.</para>
/// </remarks>
internal sealed class SessionLock
{
    private const int Free = 0;

    /// <summary>The holder's managed thread id, or <see cref="Free"/>.</summary>
    private int _owner;

    /// <summary>Enters for a <c>using</c> block.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Scope EnterScope()
    {
        Enter();
        return new Scope(this);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Enter()
    {
        int me = Environment.CurrentManagedThreadId;
        if (Interlocked.CompareExchange(ref _owner, me, Free) != Free)
        {
            EnterContended(me, Timeout.InfiniteTimeSpan);
        }
    }

    /// <summary>Enters if the lock is free now; false when another thread holds it.</summary>
    public bool TryEnter() => Interlocked.CompareExchange(ref _owner, Environment.CurrentManagedThreadId, Free) == Free;

    /// <summary>Enters within <paramref name="timeout"/>; false when another thread held it all that time.</summary>
    public bool TryEnter(TimeSpan timeout)
    {
        int me = Environment.CurrentManagedThreadId;
        return Interlocked.CompareExchange(ref _owner, me, Free) == Free || EnterContended(me, timeout);
    }

    /// <summary>Leaves; only the holder may call it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Exit()
    {
        Debug.Assert(_owner == Environment.CurrentManagedThreadId, "the session lock is left by a thread that does not hold it");
        Volatile.Write(ref _owner, Free);
    }

    public bool IsHeldByCurrentThread => Volatile.Read(ref _owner) == Environment.CurrentManagedThreadId;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool EnterContended(int me, TimeSpan timeout)
    {
        if (Volatile.Read(ref _owner) == me)
        {
            throw new InvalidOperationException("the session lock was entered again by the thread that holds it");
        }

        long deadline = timeout == Timeout.InfiniteTimeSpan ? long.MaxValue : Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        SpinWait spin = default;
        while (Volatile.Read(ref _owner) != Free || Interlocked.CompareExchange(ref _owner, me, Free) != Free)
        {
            if (Stopwatch.GetTimestamp() >= deadline)
            {
                return false;
            }

            spin.SpinOnce(sleep1Threshold: -1);
        }

        return true;
    }

    /// <summary>Leaves the lock when disposed (the end of a <c>using</c> block).</summary>
    public readonly ref struct Scope
    {
        private readonly SessionLock _lock;

        internal Scope(SessionLock held) => _lock = held;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Dispose() => _lock.Exit();
    }
}
