using System.Runtime.CompilerServices;
using Exchange.Core.Strategies;

namespace Exchange.Strategies.LevelIndexes;

/// <summary>
/// One book side as a sorted array of (price, level) with the BEST price at the END. Almost all activity is near the
/// top of the book (the CppTrader study measured ~15 levels average insertion depth), so inserting or deleting there
/// moves only the few entries above the position, and searches start from the best end: a short linear scan, then a
/// binary search over the rest when the price is deep.
/// </summary>
/// <remarks>
/// Prices are stored as keys ordered ascending toward the best: the price itself for bids (best = highest) and its
/// negation for asks (best = lowest), so one code path serves both sides. Matcher thread only. Storage doubles when
/// full (warm-up allocation, never per operation in steady state).
/// </remarks>
public struct SortedArrayLevelIndex : IPriceLevelIndex
{
    private const int InitialCapacity = 32;

    /// <summary>Entries nearer than this to the best end are found by a linear scan; farther ones by binary search.</summary>
    private const int LinearScanLength = 16;

    private long[] _keys;
    private int[] _levels;
    private int _count;
    private bool _bestIsHighest;

    public void Initialize(bool bestIsHighest, long minPrice, long maxPrice, long tickSize)
    {
        _bestIsHighest = bestIsHighest;
        _keys = new long[InitialCapacity];
        _levels = new int[InitialCapacity];
        _count = 0;
    }

    public readonly int Count => _count;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool TryGetBest(out long price, out int level)
    {
        if (_count == 0)
        {
            price = 0;
            level = -1;
            return false;
        }

        price = ToPrice(_keys[_count - 1]);
        level = _levels[_count - 1];
        return true;
    }

    public readonly bool TryGet(long price, out int level)
    {
        int index = LowerBound(ToKey(price));
        if (index < _count && _keys[index] == ToKey(price))
        {
            level = _levels[index];
            return true;
        }

        level = -1;
        return false;
    }

    public void Add(long price, int level)
    {
        long key = ToKey(price);
        int index = LowerBound(key);
        if (_count == _keys.Length)
        {
            Array.Resize(ref _keys, _keys.Length * 2);
            Array.Resize(ref _levels, _levels.Length * 2);
        }

        int moved = _count - index;
        if (moved > 0)
        {
            Array.Copy(_keys, index, _keys, index + 1, moved);
            Array.Copy(_levels, index, _levels, index + 1, moved);
        }

        _keys[index] = key;
        _levels[index] = level;
        _count++;
    }

    public void Remove(long price)
    {
        int index = LowerBound(ToKey(price));
        int moved = _count - index - 1;
        if (moved > 0)
        {
            Array.Copy(_keys, index + 1, _keys, index, moved);
            Array.Copy(_levels, index + 1, _levels, index, moved);
        }

        _count--;
    }

    public readonly void VisitFromBest<TVisitor>(ref TVisitor visitor)
        where TVisitor : struct, ILevelVisitor, allows ref struct
    {
        for (int i = _count - 1; i >= 0; i--)
        {
            if (!visitor.Visit(ToPrice(_keys[i]), _levels[i]))
            {
                return;
            }
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly long ToKey(long price) => _bestIsHighest ? price : -price;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly long ToPrice(long key) => _bestIsHighest ? key : -key;

    /// <summary>The first index whose key is >= <paramref name="key"/> (the position to insert at, or the match).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly int LowerBound(long key)
    {
        long[] keys = _keys;
        int stop = Math.Max(0, _count - LinearScanLength);
        int i = _count;
        while (i > stop && keys[i - 1] >= key)
        {
            i--;
        }

        if (i > stop || i == 0)
        {
            return i;
        }

        // Deeper than the linear window: every key at or above `stop` is >= key, so search [0, stop).
        int low = 0;
        int high = stop;
        while (low < high)
        {
            int mid = (int)((uint)(low + high) >> 1);
            if (keys[mid] < key)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }

        return low;
    }
}
