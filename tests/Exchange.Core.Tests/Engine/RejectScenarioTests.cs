using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>Every new-order reject code, on every strategy combination: the right code and no change of state.</summary>
public class RejectScenarioTests
{
    private static readonly Dictionary<string, (Func<Command, Command> Mutate, RejectReason Expected)> Cases = new()
    {
        ["UnknownInstrument"] = (c => c with { InstrumentId = 3 }, RejectReason.UnknownInstrument),
        ["NegativeInstrument"] = (c => c with { InstrumentId = -1 }, RejectReason.UnknownInstrument),
        ["InvalidSide"] = (c => c with { Side = (Side)'7' }, RejectReason.InvalidSide),
        ["InvalidOrderType"] = (c => c with { OrderType = (OrderType)'3' }, RejectReason.InvalidOrderType),
        ["InvalidTimeInForce"] = (c => c with { TimeInForce = (TimeInForce)'6' }, RejectReason.InvalidTimeInForce),
        ["ZeroQuantity"] = (c => c with { Quantity = 0 }, RejectReason.QuantityNotPositive),
        ["NegativeQuantity"] = (c => c with { Quantity = -10 }, RejectReason.QuantityNotPositive),
        ["QuantityOffLot"] = (c => c with { Quantity = 15 }, RejectReason.QuantityOffLot),
        ["QuantityTooLarge"] = (c => c with { Quantity = long.MaxValue / 10 * 10 }, RejectReason.QuantityTooLarge),
        ["ZeroPrice"] = (c => c with { Price = 0 }, RejectReason.PriceNotPositive),
        ["NegativePrice"] = (c => c with { Price = -TestInstruments.Mid }, RejectReason.PriceNotPositive),
        ["PriceOffTick"] = (c => c with { Price = TestInstruments.Mid + 50 }, RejectReason.PriceOffTick),
        ["PriceBelowBand"] = (c => c with { Price = TestInstruments.MinPrice - TestInstruments.Tick }, RejectReason.PriceOutOfBand),
        ["PriceAboveBand"] = (c => c with { Price = TestInstruments.MaxPrice + TestInstruments.Tick }, RejectReason.PriceOutOfBand),
        ["DuplicateClOrdId"] = (c => c with { ClOrdId = ClOrdId.From("live") }, RejectReason.DuplicateClOrdId),
        ["UnknownCommand"] = (c => c with { Type = CommandType.None }, RejectReason.UnknownCommand),
    };

    public static IEnumerable<object[]> CombinationsAndCases =>
        from combination in StrategyMatrix.Names
        from name in Cases.Keys
        select new object[] { combination, name };

    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    [Theory]
    [MemberData(nameof(CombinationsAndCases))]
    public void Invalid_new_order_is_rejected_with_its_code_and_changes_nothing(string combination, string caseName)
    {
        var h = EngineHarness.For(combination);
        long liveOrderId = h.Send(Commands.Limit(0, 1, "live", Side.Sell, TestInstruments.P(1), 10))[0].OrderId;
        h.Send(Commands.Limit(0, 1, "bid", Side.Buy, TestInstruments.P(-1), 10));
        string before = h.BookState();
        Command valid = Commands.Limit(0, 1, "new", Side.Buy, TestInstruments.P(2), 20);
        (Func<Command, Command> mutate, RejectReason expected) = Cases[caseName];

        EngineEvent rejected = Assert.Single(h.Send(mutate(valid)));

        Assert.Equal(EventType.Rejected, rejected.Type);
        Assert.Equal(expected, rejected.RejectReason);
        // The duplicate names a resting order, so its reject reports that order (see PossibleResendScenarioTests).
        Assert.Equal(caseName == "DuplicateClOrdId" ? liveOrderId : 0, rejected.OrderId);
        Assert.Equal(before, h.BookState());
        Assert.Equal(2, h.Engine.RestingOrderCount);
        // The valid form of the same command is accepted (so the case really hinged on the mutated field).
        Assert.Equal(EventType.Accepted, h.Send(valid)[0].Type);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void Client_id_of_one_owner_is_free_for_another_but_not_for_its_owner_again_that_day(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Sell("x", 1, 5, owner: 1);
        Assert.Equal(EventType.Accepted, h.Buy("x", -1, 5, owner: 2)[0].Type);
        h.Cancel("c", "x", Side.Sell, owner: 1);
        Assert.Equal(RejectReason.DuplicateClOrdId, Assert.Single(h.Sell("x", 1, 5, owner: 1)).RejectReason);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void New_order_past_max_orders_is_rejected_with_capacity_exceeded(string combination)
    {
        var options = new EngineOptions { InitialOrderCapacity = 1, InitialLevelCapacity = 1, MaxOrders = 2 };
        var h = EngineHarness.For(combination, options);
        h.Buy("b1", -1, 1);
        h.Buy("b2", -2, 1);
        string before = h.BookState();

        EngineEvent rejected = Assert.Single(h.Buy("b3", -3, 1));

        Assert.Equal(RejectReason.CapacityExceeded, rejected.RejectReason);
        Assert.Equal(before, h.BookState());
        h.Cancel("c1", "b1", Side.Buy);
        Assert.Equal(EventType.Accepted, h.Buy("b3", -3, 1)[0].Type);
    }
}
