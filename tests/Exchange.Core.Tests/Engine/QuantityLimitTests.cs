using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// The largest order quantity: the instrument's fat-finger limit, lowered by the engine so that no sum it keeps (an
/// order's notional, the quantity at a level or on a side) can wrap a long.
/// </summary>
public class QuantityLimitTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Configured_maximum_is_accepted_and_one_lot_more_is_rejected_on_new_and_replace(string combination)
    {
        IReadOnlyList<Instrument> instruments = [.. TestInstruments.Create().Select(i => i with { MaxOrderQuantity = 1_000 })];
        var h = EngineHarness.For(combination, instruments: instruments);

        Assert.Equal(EventType.Accepted, h.Buy("at-limit", 0, 1_000)[0].Type);
        EngineEvent over = Assert.Single(h.Buy("over", 0, 1_001));
        Assert.Equal(RejectReason.QuantityTooLarge, over.RejectReason);

        EngineEvent replace = Assert.Single(h.Replace("r1", "at-limit", Side.Buy, 0, 1_001));
        Assert.Equal(RejectReason.QuantityTooLarge, replace.RejectReason);
        Assert.Equal(1, h.Engine.RestingOrderCount);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Orders_whose_notional_would_wrap_are_rejected_instead_of_reporting_a_wrapped_average_price(string combination)
    {
        var h = EngineHarness.For(combination);

        // 5e18 at up to 2e6 units is far beyond a long's notional; before the limit such fills wrapped the
        // cumulative notional (a negative AvgPx) and two of them wrapped the level's quantity.
        Assert.Equal(RejectReason.QuantityTooLarge, Assert.Single(h.Sell("s1", 0, 5_000_000_000_000_000_000, owner: 1)).RejectReason);
        Assert.Equal(0, h.Engine.RestingOrderCount);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void The_largest_accepted_orders_sum_exactly(string combination)
    {
        var h = EngineHarness.For(combination);
        long largest = Math.Min(long.MaxValue / TestInstruments.MaxPrice, long.MaxValue / new EngineOptions().MaxOrders);

        Assert.Equal(EventType.Accepted, h.Sell("s1", 0, largest / 2, owner: 1)[0].Type);
        Assert.Equal(EventType.Accepted, h.Sell("s2", 1, largest / 2, owner: 1)[0].Type);
        Assert.Equal(RejectReason.QuantityTooLarge, Assert.Single(h.Buy("too-big", 1, largest + 1, owner: 2)).RejectReason);
        EngineEvent[] events = h.Buy("b1", 1, largest, owner: 2);

        EngineEvent last = events.Last(e => e.Type == EventType.Trade && e.OwnerId == 2);
        Assert.Equal((largest / 2) * 2, last.CumulativeQuantity);
        Int128 expected = ((Int128)TestInstruments.P(0) * (largest / 2)) + ((Int128)TestInstruments.P(1) * (largest / 2));
        Assert.Equal(expected, (Int128)last.CumulativeNotional);
    }
}
