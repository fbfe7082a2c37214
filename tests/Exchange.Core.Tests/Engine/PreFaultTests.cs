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

    [Fact]
    public void Touching_an_array_of_references_keeps_them_through_a_compacting_collection()
    {
        var items = new Holder[3 * PageToucher.PageSize / 8];
        for (int i = 0; i < items.Length; i++)
        {
            items[i] = new Holder(i.ToString(System.Globalization.CultureInfo.InvariantCulture), i);
        }

        PageToucher.Touch(items);
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);

        for (int i = 0; i < items.Length; i++)
        {
            Assert.Equal(i.ToString(System.Globalization.CultureInfo.InvariantCulture), items[i].Name);
            Assert.Equal(i, items[i].Value);
        }
    }

    [Fact]
    public unsafe void Touching_native_memory_keeps_every_byte()
    {
        const int Length = (2 * PageToucher.PageSize) + 5;
        byte* memory = (byte*)System.Runtime.InteropServices.NativeMemory.Alloc(Length);
        try
        {
            var bytes = new Span<byte>(memory, Length);
            new Random(4).NextBytes(bytes);
            byte[] before = bytes.ToArray();
            Assert.Equal(Length, PageToucher.Touch(memory, Length));
            Assert.Equal(before, bytes.ToArray());
        }
        finally
        {
            System.Runtime.InteropServices.NativeMemory.Free(memory);
        }
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

    private readonly record struct Holder(string Name, long Value);
}
