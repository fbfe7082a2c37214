using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

/// <summary>
/// Pooled price-level slots shared by all books and sides; the level indexes map prices to these slot numbers.
/// </summary>
/// <remarks>Matcher thread only. Grows by doubling (warm-up only); free slots are reused last-in first-out.</remarks>
internal sealed class LevelPool<TOrderList>
    where TOrderList : struct, IOrderList
{
    private int[] _free;
    private int _freeCount;

    public LevelPool(int initialCapacity)
    {
        int capacity = Math.Max(1, initialCapacity);
        Levels = new PriceLevel<TOrderList>[capacity];
        _free = new int[capacity];
        PushFree(0, capacity);
    }

    /// <summary>Writes every page of the pool's arrays once (<see cref="Memory.PageToucher"/>); returns the bytes covered.</summary>
    public long PreFault() => Memory.PageToucher.Touch(Levels) + Memory.PageToucher.Touch(_free);

    /// <summary>The slots. Refs into it stay valid until the next <see cref="Allocate"/> (which may grow it).</summary>
    public PriceLevel<TOrderList>[] Levels { get; private set; }

    /// <summary>Takes a level slot for <paramref name="price"/> with an empty order list.</summary>
    public int Allocate(long price)
    {
        if (_freeCount == 0)
        {
            Grow();
        }

        int level = _free[--_freeCount];
        ref PriceLevel<TOrderList> slot = ref Levels[level];
        slot.Price = price;
        slot.TotalQuantity = 0;
        slot.Orders.Clear();
        return level;
    }

    public void Release(int level) => _free[_freeCount++] = level;

    private void Grow()
    {
        int oldCapacity = Levels.Length;
        int newCapacity = oldCapacity * 2;
        PriceLevel<TOrderList>[] levels = Levels;
        Array.Resize(ref levels, newCapacity);
        Levels = levels;
        Array.Resize(ref _free, newCapacity);
        PushFree(oldCapacity, newCapacity);
    }

    private void PushFree(int from, int to)
    {
        for (int level = to - 1; level >= from; level--)
        {
            _free[_freeCount++] = level;
        }
    }
}
