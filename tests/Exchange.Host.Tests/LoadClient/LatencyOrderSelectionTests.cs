using Exchange.Core.Domain;
using Exchange.LoadClient.Measurement;
using Exchange.LoadClient.Orders;
using Xunit;

namespace Exchange.Host.Tests.LoadClient;

/// <summary>Which orders mixed mode times: one in every K, and the mix's four kinds alike.</summary>
public class LatencyOrderSelectionTests
{
    [Theory]
    [InlineData(100, 10)]
    [InlineData(20, 10)]
    [InlineData(37, 10)]
    [InlineData(7, 0)]
    [InlineData(4, 0)]
    [InlineData(3, 0)]
    [InlineData(2, 0)]
    public void One_order_in_every_K_is_timed_and_every_kind_of_the_mix_equally(int every, int passiveLevels)
    {
        const int Orders = 40_000;
        var tracker = new OrderTracker(Orders, prepopulate: 0, warmup: 0, latencyEvery: every, correctedForSchedule: true, 60_000_000_000);
        var flow = new OrderFlow(midPrice: 1_000_000, tick: 100, levels: 5);
        var kinds = new Dictionary<(Side, TimeInForce), int>();
        var passivePrices = new HashSet<long>();
        int timed = 0;
        for (long block = 0; block < Orders / every; block++)
        {
            int inBlock = 0;
            for (long n = block * every; n < (block + 1) * every; n++)
            {
                if (!tracker.IsMeasured(n))
                {
                    continue;
                }

                inBlock++;
                OrderSpec spec = flow.Flow(n);
                kinds[(spec.Side, spec.TimeInForce)] = kinds.GetValueOrDefault((spec.Side, spec.TimeInForce)) + 1;
                if (spec.TimeInForce == TimeInForce.Day)
                {
                    passivePrices.Add(spec.Price);
                }
            }

            Assert.Equal(1, inBlock);
            timed += inBlock;
        }

        Assert.Equal(4, kinds.Count);
        Assert.All(kinds.Values, count => Assert.InRange(count, (timed / 4) - 1, (timed / 4) + 1));
        if (passiveLevels > 0)
        {
            Assert.Equal(passiveLevels, passivePrices.Count); // five levels on each side
        }
    }

    [Fact]
    public void Without_a_latency_stride_every_order_after_the_warm_up_is_timed()
    {
        var tracker = new OrderTracker(100, prepopulate: 0, warmup: 10, latencyEvery: 1, correctedForSchedule: true, 60_000_000_000);
        Assert.All(Enumerable.Range(0, 10), n => Assert.False(tracker.IsMeasured(n)));
        Assert.All(Enumerable.Range(10, 90), n => Assert.True(tracker.IsMeasured(n)));
    }
}
