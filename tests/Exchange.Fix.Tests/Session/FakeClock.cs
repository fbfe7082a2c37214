using Exchange.Fix.Session;

namespace Exchange.Fix.Tests.Session;

/// <summary>A clock that moves only when the test says so; wall and monotonic time advance together.</summary>
internal sealed class FakeClock : IClock
{
    public static readonly long Start = (new DateTime(2026, 3, 2, 9, 30, 0, DateTimeKind.Utc).Ticks - DateTime.UnixEpoch.Ticks) * 100;

    private long _utcNanos = Start;
    private long _monotonicNanos = 1_000_000_000;

    public long UtcNowNanos
    {
        get
        {
            UtcReads++;
            return _utcNanos;
        }
    }

    public long MonotonicNanos
    {
        get
        {
            MonotonicReads++;
            return _monotonicNanos;
        }
    }

    /// <summary>How often <see cref="UtcNowNanos"/> was read (a real clock read costs tens of nanoseconds).</summary>
    public int UtcReads { get; private set; }

    /// <summary>How often <see cref="MonotonicNanos"/> was read.</summary>
    public int MonotonicReads { get; private set; }

    public void Advance(TimeSpan by)
    {
        _utcNanos += by.Ticks * 100;
        _monotonicNanos += by.Ticks * 100;
    }
}
