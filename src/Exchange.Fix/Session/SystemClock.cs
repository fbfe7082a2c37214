using System.Diagnostics;

namespace Exchange.Fix.Session;

/// <summary>The production <see cref="IClock"/>: DateTime.UtcNow and Stopwatch. Stateless, thread-safe.</summary>
public sealed class SystemClock : IClock
{
    public static readonly SystemClock Instance = new();

    private static readonly double NanosPerTimestampTick = 1_000_000_000.0 / Stopwatch.Frequency;

    private SystemClock()
    {
    }

    public long UtcNowNanos => (DateTime.UtcNow.Ticks - DateTime.UnixEpoch.Ticks) * 100;

    public long MonotonicNanos => (long)(Stopwatch.GetTimestamp() * NanosPerTimestampTick);
}
