using Exchange.Core.Domain;
using Exchange.LoadClient.Orders;
using Xunit;

namespace Exchange.Host.Tests.LoadClient;

public class OrderFlowTests
{
    private readonly OrderFlow _flow = new(midPrice: 1_000_000, tick: 100, levels: 5);

    [Fact]
    public void CyclesOfFour_RestTwoAndCrossTwo()
    {
        Assert.Equal(new OrderSpec(Side.Buy, TimeInForce.Day, 999_900), _flow.Flow(0));
        Assert.Equal(new OrderSpec(Side.Sell, TimeInForce.Day, 1_000_100), _flow.Flow(1));
        Assert.Equal(new OrderSpec(Side.Buy, TimeInForce.ImmediateOrCancel, 1_000_500), _flow.Flow(2));
        Assert.Equal(new OrderSpec(Side.Sell, TimeInForce.ImmediateOrCancel, 999_500), _flow.Flow(3));
        Assert.Equal(new OrderSpec(Side.Buy, TimeInForce.Day, 999_800), _flow.Flow(4));
        Assert.Equal(new OrderSpec(Side.Sell, TimeInForce.Day, 1_000_500), _flow.Flow(17));
        Assert.Equal(new OrderSpec(Side.Buy, TimeInForce.Day, 999_900), _flow.Flow(20));
    }

    [Fact]
    public void PassiveOrders_NeverCross_AndAggressiveOrders_CrossEveryLevel()
    {
        long bestBid = long.MinValue;
        long bestAsk = long.MaxValue;
        long worstBid = long.MaxValue;
        long worstAsk = long.MinValue;
        for (long n = 0; n < 1_000; n++)
        {
            foreach (OrderSpec spec in (OrderSpec[])[_flow.Flow(n), _flow.Prepopulate(n)])
            {
                if (spec.TimeInForce != TimeInForce.Day)
                {
                    continue;
                }

                if (spec.Side == Side.Buy)
                {
                    bestBid = Math.Max(bestBid, spec.Price);
                    worstBid = Math.Min(worstBid, spec.Price);
                }
                else
                {
                    bestAsk = Math.Min(bestAsk, spec.Price);
                    worstAsk = Math.Max(worstAsk, spec.Price);
                }
            }
        }

        Assert.True(bestBid < bestAsk);
        Assert.True(_flow.Flow(2).Price >= worstAsk);
        Assert.True(_flow.Flow(3).Price <= worstBid);
    }

    [Fact]
    public void Prepopulate_AlternatesSidesOverTheLevels()
    {
        Assert.Equal(new OrderSpec(Side.Buy, TimeInForce.Day, 999_900), _flow.Prepopulate(0));
        Assert.Equal(new OrderSpec(Side.Sell, TimeInForce.Day, 1_000_100), _flow.Prepopulate(1));
        Assert.Equal(new OrderSpec(Side.Buy, TimeInForce.Day, 999_800), _flow.Prepopulate(2));
        Assert.Equal(new OrderSpec(Side.Sell, TimeInForce.Day, 1_000_500), _flow.Prepopulate(9));
        Assert.Equal(_flow.Prepopulate(3), _flow.For(OrderKind.Prepopulate, 3));
        Assert.Equal(_flow.Flow(3), _flow.For(OrderKind.Flow, 3));
    }
}
