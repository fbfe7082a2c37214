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
    public void EachPass_CountsUnderEveryBoundItExceeds()
    {
        var passes = new PollerPasses();

        passes.Observe(Ticks(5));
        passes.Observe(Ticks(99));
        passes.Observe(Ticks(400));
        passes.Observe(Ticks(2_000));
        passes.Observe(Ticks(12_000));

        Assert.Equal(3, passes.PassesOver(0));
        Assert.Equal(2, passes.PassesOver(1));
        Assert.Equal(1, passes.PassesOver(2));
        Assert.Equal(14.4, passes.SlowPassMilliseconds, 0.01);
    }

    [Fact]
    public void BoundNames_AreTheMetricTags()
    {
        Assert.Equal(["100us", "1ms", "10ms"], Enumerable.Range(0, PollerPasses.Bounds.Length).Select(PollerPasses.BoundName));
    }

    [Fact]
    public void Observe_DoesNotAllocate()
    {
        var passes = new PollerPasses();
        passes.Observe(Ticks(200));
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 10_000; i++)
        {
            passes.Observe(Ticks(i % 3_000));
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }
}
