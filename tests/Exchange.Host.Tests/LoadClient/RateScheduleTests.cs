using Exchange.LoadClient.Measurement;
using Xunit;

namespace Exchange.Host.Tests.LoadClient;

public class RateScheduleTests
{
    [Fact]
    public void FiftyThousandPerSecond_IsTwentyMicrosecondsApart()
    {
        var schedule = new RateSchedule(startTicks: 5_000, ratePerSecond: 50_000, ticksPerSecond: 1_000_000_000);

        Assert.Equal(5_000, schedule.IntendedTicks(0));
        Assert.Equal(25_000, schedule.IntendedTicks(1));
        Assert.Equal(5_000 + (199_999L * 20_000), schedule.IntendedTicks(199_999));
    }

    [Fact]
    public void FractionalIntervals_DoNotDrift()
    {
        // 3 per second at 10 ticks per second: 3.33 ticks apart, truncated per order but exact every third order.
        var schedule = new RateSchedule(startTicks: 0, ratePerSecond: 3, ticksPerSecond: 10);

        Assert.Equal([0L, 3, 6, 10, 13, 16, 20], Enumerable.Range(0, 7).Select(n => schedule.IntendedTicks(n)));
        Assert.Equal(10_000_000, schedule.IntendedTicks(3_000_000));
    }

    [Theory]
    [InlineData(3, 10)]
    [InlineData(50_000, 1_000_000_000)]
    [InlineData(7, 3)]
    public void DueBy_CountsTheOrdersIntendedAtOrBeforeNow(long rate, long ticksPerSecond)
    {
        var schedule = new RateSchedule(startTicks: 1_000, ratePerSecond: rate, ticksPerSecond: ticksPerSecond);
        var random = new Random(5);
        long[] intended = Enumerable.Range(0, 2_000).Select(n => schedule.IntendedTicks(n)).ToArray();

        Assert.Equal(0, schedule.DueBy(999));
        foreach (long n in new long[] { 0, 1, 2, 17, 1_998 })
        {
            // Exactly on an order's time and one tick before it (several orders share a tick when rate > ticks).
            Assert.Equal(intended.Count(t => t <= intended[n]), schedule.DueBy(intended[n]));
            Assert.Equal(intended.Count(t => t < intended[n]), schedule.DueBy(intended[n] - 1));
        }

        for (int i = 0; i < 1_000; i++)
        {
            long now = random.NextInt64(1_000, intended[^2]);
            Assert.Equal(intended.Count(t => t <= now), schedule.DueBy(now));
        }
    }

    [Fact]
    public void LargeCounts_DoNotOverflow()
    {
        var schedule = new RateSchedule(startTicks: 0, ratePerSecond: 1, ticksPerSecond: 1_000_000_000);
        Assert.Equal(100_000_000L * 1_000_000_000, schedule.IntendedTicks(100_000_000));
    }
}
