using System.Diagnostics;

namespace Exchange.Hiccups;

/// <summary>
/// Spins on one CPU reading the clock and records every gap between two consecutive reads longer than a threshold:
/// time the thread did not run (another thread, an interrupt, or the hypervisor running something else on this vCPU).
/// A busy-polling venue thread or client thread loses exactly these stretches.
/// </summary>
/// <remarks>Allocates only in the constructor; the loop reads the clock and compares.</remarks>
internal interface ITickSource
{
    long Now();
}

internal readonly struct StopwatchTicks : ITickSource
{
    public long Now() => Stopwatch.GetTimestamp();
}

internal sealed class StallRecorder
{
    private readonly Stall[] _stalls;
    private readonly long _thresholdTicks;

    public StallRecorder(long thresholdTicks, int capacity)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(thresholdTicks);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(capacity);
        _thresholdTicks = thresholdTicks;
        _stalls = new Stall[capacity];
    }

    public int Count { get; private set; }

    /// <summary>Stalls beyond the capacity: counted, not kept (the report says so).</summary>
    public long Dropped { get; private set; }

    public ReadOnlySpan<Stall> Stalls => _stalls.AsSpan(0, Count);

    /// <summary>Spins on the Stopwatch until <paramref name="endTicks"/>.</summary>
    public void Run(long endTicks) => Run(endTicks, default(StopwatchTicks));

    /// <summary>Spins on <paramref name="clock"/> until it reaches <paramref name="endTicks"/> (a struct, so the reads inline).</summary>
    public void Run<TClock>(long endTicks, TClock clock)
        where TClock : struct, ITickSource
    {
        long previous = clock.Now();
        while (previous < endTicks)
        {
            long now = clock.Now();
            long gap = now - previous;
            if (gap > _thresholdTicks)
            {
                if (Count < _stalls.Length)
                {
                    _stalls[Count++] = new Stall(previous, gap);
                }
                else
                {
                    Dropped++;
                }
            }

            previous = now;
        }
    }
}
