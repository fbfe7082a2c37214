using Exchange.Core.Domain;
using Exchange.Core.Memory;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>Pre-faulting writes every page but changes nothing: memory keeps its bytes, an engine its books.</summary>
public class PreFaultTests
{
    public static IEnumerable<object[]> Combinations => StrategyMatrix.Combinations;

    [Fact]
    public void Touching_an_array_keeps_every_byte_and_covers_all_of_it()
    {
        byte[] bytes = new byte[(3 * PageToucher.PageSize) + 17];
        new Random(3).NextBytes(bytes);
        byte[] before = (byte[])bytes.Clone();

        Assert.Equal(bytes.Length, PageToucher.Touch(bytes));
        Assert.Equal(before, bytes);
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public void An_engine_pre_faulted_with_orders_resting_keeps_its_books_and_ids(string combination)
    {
        var h = EngineHarness.For(combination);
        h.Buy("b1", -1, 5, TimeInForce.GoodTillCancel);
        h.Sell("s1", 2, 7);
        string before = h.BookState();

        Assert.True(h.Engine.PreFault() > 0);

        Assert.Equal(before, h.BookState());
        Assert.Equal(2, h.Engine.ClOrdIdsUsedToday);
        Assert.Equal(Events.RejectReason.DuplicateClOrdId, Assert.Single(h.Buy("b1", -2, 5)).RejectReason);
    }
}
