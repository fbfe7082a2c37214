using System.Diagnostics;
using Exchange.Host.Metrics;
using Exchange.Tests.Shared;
using Xunit;

namespace Exchange.Host.Tests.Metrics;

[Collection(ZeroAllocationCollection.Name)]
public class PollerPassesTests
{
    private static long Ticks(double microseconds) => (long)(microseconds * Stopwatch.Frequency / 1_000_000);

    [Fact]
    public void OnlyPassesOverTheThreshold_AreSlow()
    {
        var passes = new PollerPasses(TimeSpan.FromMicroseconds(100));

        passes.Observe(Ticks(5));
        passes.Observe(Ticks(99));
        passes.Observe(Ticks(400));
        passes.Observe(Ticks(2_000));

        Assert.Equal(2, passes.SlowPasses);
        Assert.Equal(2.4, passes.SlowPassMilliseconds, 0.01);
    }

    [Fact]
    public void LongestPass_IsSinceThePreviousLook()
    {
        var passes = new PollerPasses();
        passes.Observe(Ticks(30));
        passes.Observe(Ticks(700));
        passes.Observe(Ticks(50));

        Assert.Equal(700, passes.TakeLongestMicroseconds(), 1);

        passes.Observe(Ticks(40));
        Assert.Equal(40, passes.TakeLongestMicroseconds(), 1);
        Assert.Equal(0, passes.TakeLongestMicroseconds());
    }

    [Fact]
    public void Observe_DoesNotAllocate()
    {
        var passes = new PollerPasses();
        passes.Observe(Ticks(200));
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 10_000; i++)
        {
            passes.Observe(Ticks(i % 300));
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Fact]
    public void NonPositiveThreshold_IsRefused()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new PollerPasses(TimeSpan.Zero));
    }
}
