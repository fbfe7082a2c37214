using Exchange.Fix.Session;

namespace Exchange.Tests.Shared;

/// <summary>
/// A clock that moves only when the test says so; wall and monotonic time advance together. Shared by the FIX
/// session tests and the venue's trading-day tests (linked into both projects), so both fake the one production
/// <see cref="IClock"/>. Safe to read from the venue's timer or polling thread while the test thread advances it.
/// </summary>
internal sealed class FakeClock : IClock
{
    public static readonly long Start = (new DateTime(2026, 3, 2, 9, 30, 0, DateTimeKind.Utc).Ticks - DateTime.UnixEpoch.Ticks) * 100;

    private long _utcNanos;
    private long _monotonicNanos = 1_000_000_000;
    private int _utcReads;
    private int _monotonicReads;
    private int _bothReads;

    public FakeClock()
        : this(Start)
    {
    }

    /// <param name="utcNanos">The wall-clock time to start at, nanoseconds since the Unix epoch.</param>
    public FakeClock(long utcNanos) => _utcNanos = utcNanos;

    public long UtcNowNanos
    {
        get
        {
            Interlocked.Increment(ref _utcReads);
            return Volatile.Read(ref _utcNanos);
        }
    }

    public long MonotonicNanos
    {
        get
        {
            Interlocked.Increment(ref _monotonicReads);
            return Volatile.Read(ref _monotonicNanos);
        }
    }

    /// <summary>Both at one instant, counted as one read (as <see cref="SystemClock.Now"/> costs one).</summary>
    public ClockReading Now
    {
        get
        {
            Interlocked.Increment(ref _bothReads);
            return new ClockReading(Volatile.Read(ref _utcNanos), Volatile.Read(ref _monotonicNanos));
        }
    }

    /// <summary>How often <see cref="UtcNowNanos"/> was read (a real clock read costs tens of nanoseconds).</summary>
    public int UtcReads => Volatile.Read(ref _utcReads);

    /// <summary>How often <see cref="MonotonicNanos"/> was read.</summary>
    public int MonotonicReads => Volatile.Read(ref _monotonicReads);

    /// <summary>How often <see cref="Now"/> was read.</summary>
    public int BothReads => Volatile.Read(ref _bothReads);

    public void Advance(TimeSpan by)
    {
        Interlocked.Add(ref _utcNanos, by.Ticks * 100);
        Interlocked.Add(ref _monotonicNanos, by.Ticks * 100);
    }

    /// <summary>Sets the wall clock to <paramref name="utc"/>; monotonic time moves forward by as much (never back).</summary>
    public void Set(DateTime utc)
    {
        long target = (utc.ToUniversalTime().Ticks - DateTime.UnixEpoch.Ticks) * 100;
        long by = target - Volatile.Read(ref _utcNanos);
        Volatile.Write(ref _utcNanos, target);
        Interlocked.Add(ref _monotonicNanos, Math.Abs(by));
    }
}
