using Exchange.Hiccups;
using Xunit;

namespace Exchange.Host.Tests.Hiccups;

public class StallBoundTests
{
    [Fact]
    public void StallsNoLongerThanTheLatency_LeaveNoOrderLate()
    {
        Assert.Equal(0, StallBound.LateWindowTicks([new Stall(100, 60), new Stall(500, 10)], latencyTicks: 60));
    }

    [Fact]
    public void EachStall_MakesLateTheOrdersDueInItsFirstLengthMinusLatency()
    {
        // [1000, 1040) and [5000, 5140): 40 + 140.
        Assert.Equal(180, StallBound.LateWindowTicks([new Stall(5000, 200), new Stall(1000, 100)], latencyTicks: 60));
    }

    [Fact]
    public void OverlappingStallsOnTwoCpus_AreCountedOnce()
    {
        // [1000, 1140) and [1100, 1240) overlap by 40; [1200, 1220) lies inside the second.
        Stall[] stalls = [new Stall(1000, 200), new Stall(1100, 200), new Stall(1200, 80)];

        Assert.Equal(240, StallBound.LateWindowTicks(stalls, latencyTicks: 60));
    }

    [Fact]
    public void PercentileFloor_IsTheLowestLatencyWithFewEnoughLateOrders()
    {
        // 1 s at 1,000/s (one order per ms), ticks are microseconds. One 30 ms stall: for a p99, 10 orders may be late,
        // so the late window (30 ms - L) must hold fewer than 11 order intervals: L = 19.001 ms. For a p99.9, 1 order:
        // fewer than 2 intervals, L = 28.001 ms. The 0.5 ms stall adds nothing at those latencies.
        Stall[] stalls = [new Stall(100_000, 30_000), new Stall(500_000, 500)];

        Assert.Equal(19_001, StallBound.PercentileFloorTicks(stalls, 0.01, 1_000_000, 1_000, 1_000_000));
        Assert.Equal(28_001, StallBound.PercentileFloorTicks(stalls, 0.001, 1_000_000, 1_000, 1_000_000));
        Assert.Equal(0, StallBound.PercentileFloorTicks([], 0.01, 1_000_000, 1_000, 1_000_000));
    }

    [Theory]
    [InlineData(1_000_000_000, 50_000, 1_000_000_000, 50_000)]
    [InlineData(40_000_000, 50_000, 1_000_000_000, 2_000)]
    [InlineData(0, 50_000, 1_000_000_000, 0)]
    public void OrdersInWindow_IsRateTimesDuration(long windowTicks, long rate, long ticksPerSecond, long expected)
    {
        Assert.Equal(expected, StallBound.OrdersInWindow(windowTicks, rate, ticksPerSecond));
    }

    [Fact]
    public void Recorder_KeepsOnlyGapsOverItsThreshold()
    {
        // Clock reads 0, 1, 2, 50 (a 48-tick gap), 51, 52, 60 (8), 200 (140), 201: with a threshold of 10 ticks the
        // 48- and 140-tick gaps are kept, with the time they started.
        var clock = new ScriptedTicks([0, 1, 2, 50, 51, 52, 60, 200, 201]);
        var recorder = new StallRecorder(thresholdTicks: 10, capacity: 1);

        recorder.Run(endTicks: 201, clock);

        Assert.Equal([new Stall(2, 48)], recorder.Stalls.ToArray());
        Assert.Equal(1, recorder.Dropped);
    }

    [Fact]
    public void LateOrdersAtLeast_CountsWholeOrdersPerWindow_NotOfTheTotal()
    {
        // One order per 20 ticks. Ten stalls of 70 ticks at latency 60 leave ten 10-tick windows: 100 ticks in all,
        // 5 orders on average, but any one window may hold none, so none is guaranteed. One 100-tick window holds 5.
        Stall[] shortOnes = Enumerable.Range(0, 10).Select(i => new Stall(i * 1_000 + 7, 70)).ToArray();

        Assert.Equal(0, StallBound.LateOrdersAtLeast(shortOnes, 60, ratePerSecond: 1, ticksPerSecond: 20));
        Assert.Equal(5, StallBound.OrdersInWindow(StallBound.LateWindowTicks(shortOnes, 60), 1, 20));
        Assert.Equal(5, StallBound.LateOrdersAtLeast([new Stall(13, 160)], 60, ratePerSecond: 1, ticksPerSecond: 20));
    }

    private sealed class Cursor
    {
        public int Next;
    }

    private readonly struct ScriptedTicks(long[] values) : ITickSource
    {
        private readonly Cursor _cursor = new();

        public long Now() => values[Math.Min(_cursor.Next++, values.Length - 1)];
    }
}
