using System.Runtime.CompilerServices;
using Exchange.Core.Strategies;

namespace Exchange.Strategies.OrderLists;

/// <summary>
/// Orders at one price level as a doubly linked list threaded through the order slots' own
/// <see cref="OrderListLinks.Previous"/>/<see cref="OrderListLinks.Next"/>: no node objects, O(1) append and removal
/// anywhere, and the links live next to each other in one array the engine already owns.
/// </summary>
/// <remarks>Matcher thread only. Holds only head, tail and count, so it fits inline in a price-level slot.</remarks>
public struct IntrusiveListOrderList : IOrderList
{
    private const int None = -1;

    private int _head;
    private int _tail;
    private int _count;

    public readonly int Count => _count;

    public void Clear()
    {
        _head = None;
        _tail = None;
        _count = 0;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void AddLast(OrderListLinks[] links, int slot)
    {
        ref OrderListLinks link = ref links[slot];
        link.Previous = _tail;
        link.Next = None;
        if (_tail == None)
        {
            _head = slot;
        }
        else
        {
            links[_tail].Next = slot;
        }

        _tail = slot;
        _count++;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Remove(OrderListLinks[] links, int slot)
    {
        ref OrderListLinks link = ref links[slot];
        int previous = link.Previous;
        int next = link.Next;
        if (previous == None)
        {
            _head = next;
        }
        else
        {
            links[previous].Next = next;
        }

        if (next == None)
        {
            _tail = previous;
        }
        else
        {
            links[next].Previous = previous;
        }

        link.Previous = None;
        link.Next = None;
        _count--;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly int First(OrderListLinks[] links) => _count == 0 ? None : _head;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly int Next(OrderListLinks[] links, int slot) => links[slot].Next;
}
