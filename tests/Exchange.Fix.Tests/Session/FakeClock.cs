using Exchange.Fix.Session;

namespace Exchange.Fix.Tests.Session;

/// <summary>A clock that moves only when the test says so; wall and monotonic time advance together.</summary>
internal sealed class FakeClock : IClock
{
    public static readonly long Start = (new DateTime(2026, 3, 2, 9, 30, 0, DateTimeKind.Utc).Ticks - DateTime.UnixEpoch.Ticks) * 100;

    public long UtcNowNanos { get; private set; } = Start;

    public long MonotonicNanos { get; private set; } = 1_000_000_000;

    public void Advance(TimeSpan by)
    {
        UtcNowNanos += by.Ticks * 100;
        MonotonicNanos += by.Ticks * 100;
    }
}
