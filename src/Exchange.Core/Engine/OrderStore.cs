using System.Runtime.CompilerServices;
using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

/// <summary>
/// Pooled order slots. An engine order id is (generation &lt;&lt; 32) | slot, so a lookup is a direct array index plus a
/// generation check that turns a stale id (its slot reused since) into "not found" instead of the wrong order.
/// </summary>
/// <remarks>
/// Matcher thread only. Arrays (slots, the order-list strategy's links, the free stack) grow together by doubling up
/// to the configured maximum: an allocation during warm-up or growth, never per command in steady state.
/// Free slots are reused last-in first-out, which keeps recently used memory hot and is deterministic.
/// </remarks>
internal sealed class OrderStore
{
    private readonly int _maxCapacity;
    private OrderSlot[] _slots;
    private OrderListLinks[] _links;
    private uint[] _generations;
    private int[] _free;
    private int _freeCount;

    /// <summary>Generations skipped so far (<see cref="SkipGenerations"/>): where slots added by growth start.</summary>
    private uint _skippedGenerations;

    public OrderStore(int initialCapacity, int maxCapacity)
    {
        _maxCapacity = Math.Max(1, maxCapacity);
        int capacity = Math.Clamp(initialCapacity, 1, _maxCapacity);
        _slots = new OrderSlot[capacity];
        _links = new OrderListLinks[capacity];
        _generations = new uint[capacity];
        _free = new int[capacity];
        PushFree(0, capacity);
    }

    /// <summary>Writes every page of the slot arrays once (<see cref="Memory.PageToucher"/>); returns the bytes covered.</summary>
    public long PreFault() =>
        Memory.PageToucher.Touch(_slots) + Memory.PageToucher.Touch(_links) + Memory.PageToucher.Touch(_generations) + Memory.PageToucher.Touch(_free);

    /// <summary>Slots in use.</summary>
    public int LiveCount { get; private set; }

    /// <summary>The order-list strategy's per-slot links. Re-read after <see cref="Allocate"/>: growth replaces the array.</summary>
    public OrderListLinks[] Links => _links;

    /// <summary>The slot's state. Refs stay valid until the next <see cref="Allocate"/> (which may grow the array).</summary>
    public ref OrderSlot this[int slot]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => ref _slots[slot];
    }

    /// <summary>True when another slot can be handed out without passing the maximum.</summary>
    public bool HasCapacity => LiveCount < _maxCapacity;

    /// <summary>Takes a free slot, cleared, with a fresh order id. Caller checks <see cref="HasCapacity"/> first.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int Allocate()
    {
        if (_freeCount == 0)
        {
            Grow();
        }

        int slot = _free[--_freeCount];
        uint generation = _generations[slot] + 1;
        if (generation == 0)
        {
            generation = 1; // 0 is never a live generation, so order id 0 always means "no order".
        }

        _generations[slot] = generation;
        ref OrderSlot order = ref _slots[slot];
        order = default;
        order.OrderId = ((long)generation << 32) | (uint)slot;
        // _links[slot] is deliberately left as is: it belongs to the order-list strategy, which may keep a pooled node
        // there for the slot's next order (that is how a node-based list avoids allocating per order).
        LiveCount++;
        return slot;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Release(int slot)
    {
        _slots[slot].OrderId = 0;
        _free[_freeCount++] = slot;
        LiveCount--;
    }

    /// <summary>
    /// Makes every order id handed out from now on differ from those of up to <paramref name="allocations"/> allocations
    /// this store never saw (orders of journal records that were lost): every slot's generation moves on by that many,
    /// and slots added by later growth start there (the lost allocations may have grown the store). Live orders keep
    /// their ids. Wraps like any generation, after 2^32 of them per slot.
    /// </summary>
    public void SkipGenerations(uint allocations)
    {
        if (allocations == 0)
        {
            return;
        }

        foreach (ref uint generation in _generations.AsSpan())
        {
            generation += allocations;
        }

        _skippedGenerations += allocations;
    }

    /// <summary>Resolves an order id to its slot; false when the id is malformed, stale or free.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryGetSlot(long orderId, out int slot)
    {
        slot = (int)(uint)orderId;
        return orderId != 0 && (uint)slot < (uint)_slots.Length && _slots[slot].OrderId == orderId;
    }

    private void Grow()
    {
        int oldCapacity = _slots.Length;
        int newCapacity = (int)Math.Min((long)oldCapacity * 2, _maxCapacity);
        if (newCapacity <= oldCapacity)
        {
            throw new InvalidOperationException("Order store is full; callers must check HasCapacity first.");
        }

        Array.Resize(ref _slots, newCapacity);
        Array.Resize(ref _links, newCapacity);
        Array.Resize(ref _generations, newCapacity);
        _generations.AsSpan(oldCapacity).Fill(_skippedGenerations);
        Array.Resize(ref _free, newCapacity);
        PushFree(oldCapacity, newCapacity);
    }

    /// <summary>Pushes [from, to) so the lowest slot is handed out first.</summary>
    private void PushFree(int from, int to)
    {
        for (int slot = to - 1; slot >= from; slot--)
        {
            _free[_freeCount++] = slot;
        }
    }
}
