using Exchange.Core.Strategies;

namespace Exchange.Strategies.OrderLists;

/// <summary>
/// A level's orders in an array-backed ring of order slots (the Java study's <c>ArrayDeque</c> analogue), with O(1)
/// removal from the middle by tombstoning.
/// </summary>
/// <remarks>
/// <para>
/// Layout: the used cells are <c>[head, head + used)</c> modulo the power-of-two capacity. A removed order's cell is
/// marked -1 (a tombstone) instead of shifting its neighbours; each slot's ring position is kept in
/// <see cref="OrderListLinks.Previous"/> so removal finds its cell directly. Tombstones at either end are trimmed at
/// once, so whenever the list is not empty the head and tail cells hold live orders and <see cref="First"/> is O(1).
/// Interior tombstones are skipped by <see cref="Next"/>; when they outnumber the live orders the ring is compacted in
/// place (each compaction is paid for by the removals that made its tombstones, so removal stays O(1) amortised and a
/// walk over the level touches at most about twice as many cells as it has orders).
/// </para>
/// <para>
/// Allocation: the ring is allocated by the first <see cref="Clear"/> and doubled when full of live orders; it is kept
/// across <see cref="Clear"/>, so a pooled level that has once held its peak number of orders never allocates again.
/// </para>
/// </remarks>
public struct RingDequeOrderList : IOrderList
{
    private const int InitialCapacity = 8;
    private const int Tombstone = -1;

    private int[]? _cells;
    private int _head;
    private int _used;
    private int _count;

    /// <inheritdoc/>
    public readonly int Count => _count;

    /// <inheritdoc/>
    public void Clear()
    {
        _cells ??= new int[InitialCapacity];
        _head = 0;
        _used = 0;
        _count = 0;
    }

    /// <inheritdoc/>
    public void AddLast(OrderListLinks[] links, int slot)
    {
        int[] cells = Cells;
        if (_used == cells.Length)
        {
            if (_used - _count > _count)
            {
                Compact(links);
            }
            else
            {
                cells = Grow(links);
            }
        }

        int position = (_head + _used) & (cells.Length - 1);
        cells[position] = slot;
        links[slot].Previous = position;
        _used++;
        _count++;
    }

    /// <inheritdoc/>
    public void Remove(OrderListLinks[] links, int slot)
    {
        int[] cells = Cells;
        int position = links[slot].Previous;
        if ((uint)position >= (uint)cells.Length || cells[position] != slot)
        {
            throw new InvalidOperationException($"Order slot {slot} is not in this RingDequeOrderList.");
        }

        cells[position] = Tombstone;
        _count--;
        if (_count == 0)
        {
            _head = 0;
            _used = 0;
            return;
        }

        int mask = cells.Length - 1;
        if (position == _head)
        {
            // Lazily drop the tombstones now at the front; a live cell exists because _count > 0.
            do
            {
                _head = (_head + 1) & mask;
                _used--;
            }
            while (cells[_head] == Tombstone);
        }
        else if (position == ((_head + _used - 1) & mask))
        {
            do
            {
                _used--;
            }
            while (cells[(_head + _used - 1) & mask] == Tombstone);
        }
        else if (_used - _count > _count)
        {
            Compact(links);
        }
    }

    /// <inheritdoc/>
    public readonly int First(OrderListLinks[] links) => _count == 0 ? -1 : Cells[_head];

    /// <inheritdoc/>
    public readonly int Next(OrderListLinks[] links, int slot)
    {
        int[] cells = Cells;
        int mask = cells.Length - 1;
        int offset = (links[slot].Previous - _head) & mask;
        for (int i = offset + 1; i < _used; i++)
        {
            int candidate = cells[(_head + i) & mask];
            if (candidate != Tombstone)
            {
                return candidate;
            }
        }

        return -1;
    }

    private readonly int[] Cells =>
        _cells ?? throw new InvalidOperationException("RingDequeOrderList used before Clear().");

    /// <summary>Slides live cells toward the head over the tombstones, keeping their order.</summary>
    private void Compact(OrderListLinks[] links) => _used = CopyLive(links, Cells, _head);

    /// <summary>Doubles the ring, moving live cells to the front of the new one (dropping tombstones on the way).</summary>
    private int[] Grow(OrderListLinks[] links)
    {
        var cells = new int[Cells.Length * 2];
        _used = CopyLive(links, cells, 0);
        _cells = cells;
        _head = 0;
        return cells;
    }

    /// <summary>
    /// Copies the live cells, in order, into <paramref name="target"/> from <paramref name="targetHead"/> on and records
    /// each slot's new position; returns how many were copied. The target may be the ring itself with the same head:
    /// a cell is written no later than it is read, so nothing unread is overwritten.
    /// </summary>
    private readonly int CopyLive(OrderListLinks[] links, int[] target, int targetHead)
    {
        int[] source = Cells;
        int sourceMask = source.Length - 1;
        int targetMask = target.Length - 1;
        int written = 0;
        for (int read = 0; read < _used; read++)
        {
            int slot = source[(_head + read) & sourceMask];
            if (slot != Tombstone)
            {
                int position = (targetHead + written) & targetMask;
                target[position] = slot;
                links[slot].Previous = position;
                written++;
            }
        }

        return written;
    }
}
