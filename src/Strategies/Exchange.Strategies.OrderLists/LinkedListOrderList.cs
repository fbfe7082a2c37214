using Exchange.Core.Strategies;

namespace Exchange.Strategies.OrderLists;

/// <summary>
/// The Java study's <c>LinkedList</c> baseline: a level's orders in a <see cref="LinkedList{T}"/> of order slots.
/// </summary>
/// <remarks>
/// Allocation: each order slot owns one <see cref="LinkedListNode{T}"/>, kept in <see cref="OrderListLinks.Node"/>
/// and re-linked every time that slot joins a list, so after every slot has been used once (warm-up) adding and removing
/// allocate nothing. The <see cref="LinkedList{T}"/> itself is created by the first <see cref="Clear"/> and reused by
/// later ones. The cost this baseline shows is the pointer chasing through heap nodes, not allocation.
/// A node still linked into a list cannot be added again: <see cref="LinkedList{T}"/> throws, which is a caller bug.
/// </remarks>
public struct LinkedListOrderList : IOrderList
{
    private LinkedList<int>? _list;

    /// <inheritdoc/>
    public readonly int Count => _list is null ? 0 : _list.Count;

    /// <inheritdoc/>
    public void Clear()
    {
        if (_list is null)
        {
            _list = new LinkedList<int>();
        }
        else
        {
            // Detaches every node (they stay owned by their slots and are re-linked on the next AddLast).
            _list.Clear();
        }
    }

    /// <inheritdoc/>
    public readonly void AddLast(OrderListLinks[] links, int slot)
    {
        ref OrderListLinks entry = ref links[slot];
        var node = (LinkedListNode<int>?)entry.Node;
        if (node is null)
        {
            node = new LinkedListNode<int>(slot);
            entry.Node = node;
        }
        else
        {
            // The node belongs to this slot, but the engine may have moved the links array; keep the value honest.
            node.Value = slot;
        }

        List.AddLast(node);
    }

    /// <inheritdoc/>
    public readonly void Remove(OrderListLinks[] links, int slot) => List.Remove(NodeOf(links, slot));

    /// <inheritdoc/>
    public readonly int First(OrderListLinks[] links)
    {
        LinkedListNode<int>? first = List.First;
        return first is null ? -1 : first.Value;
    }

    /// <inheritdoc/>
    public readonly int Next(OrderListLinks[] links, int slot)
    {
        LinkedListNode<int>? next = NodeOf(links, slot).Next;
        return next is null ? -1 : next.Value;
    }

    private readonly LinkedList<int> List =>
        _list ?? throw new InvalidOperationException("LinkedListOrderList used before Clear().");

    private static LinkedListNode<int> NodeOf(OrderListLinks[] links, int slot) =>
        (LinkedListNode<int>?)links[slot].Node
        ?? throw new InvalidOperationException($"Order slot {slot} was never added to a LinkedListOrderList.");
}
