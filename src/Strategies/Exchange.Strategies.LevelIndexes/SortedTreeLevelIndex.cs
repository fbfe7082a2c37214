using Exchange.Core.Strategies;

namespace Exchange.Strategies.LevelIndexes;

/// <summary>
/// The <c>TreeMap</c> baseline (the CppTrader study's balanced tree): price levels in a red-black tree,
/// <see cref="SortedSet{T}"/>, ordered best first.
/// </summary>
/// <remarks>
/// <para>
/// The tree's comparer puts the best price first (descending for bids, ascending for asks), so one code path serves
/// both sides: <see cref="SortedSet{T}.Min"/> is the best level and forward enumeration walks best to worst. The best
/// level is cached so <see cref="TryGetBest"/> is O(1); it is looked up again (O(log n), no allocation) only when the
/// best level itself is removed.
/// </para>
/// <para>
/// Allocation (this is the baseline and it does allocate): <see cref="Add"/> allocates one tree node per level and
/// <see cref="VisitFromBest{TVisitor}"/> allocates the enumerator's internal stack on every call. <see cref="TryGet"/>,
/// <see cref="TryGetBest"/> and <see cref="Remove"/> allocate nothing. Comparisons go through an
/// <see cref="IComparer{T}"/> interface call, as they do in the Java original.
/// </para>
/// </remarks>
public struct SortedTreeLevelIndex : IPriceLevelIndex
{
    private SortedSet<PriceLevel>? _levels;
    private bool _bestIsHighest;
    private long _bestPrice;
    private int _bestLevel;

    /// <inheritdoc/>
    public void Initialize(bool bestIsHighest, long minPrice, long maxPrice, long tickSize)
    {
        _bestIsHighest = bestIsHighest;
        _levels = new SortedSet<PriceLevel>(bestIsHighest ? BestFirst.Descending : BestFirst.Ascending);
        _bestPrice = 0;
        _bestLevel = -1;
    }

    /// <inheritdoc/>
    public readonly int Count => _levels is null ? 0 : _levels.Count;

    /// <inheritdoc/>
    public readonly bool TryGetBest(out long price, out int level)
    {
        if (Count == 0)
        {
            price = 0;
            level = -1;
            return false;
        }

        price = _bestPrice;
        level = _bestLevel;
        return true;
    }

    /// <inheritdoc/>
    public readonly bool TryGet(long price, out int level)
    {
        if (Levels.TryGetValue(new PriceLevel(price, -1), out PriceLevel found))
        {
            level = found.Level;
            return true;
        }

        level = -1;
        return false;
    }

    /// <inheritdoc/>
    public void Add(long price, int level)
    {
        SortedSet<PriceLevel> levels = Levels;
        if (!levels.Add(new PriceLevel(price, level)))
        {
            throw new InvalidOperationException($"A level already exists at price {price}.");
        }

        if (levels.Count == 1 || (_bestIsHighest ? price > _bestPrice : price < _bestPrice))
        {
            _bestPrice = price;
            _bestLevel = level;
        }
    }

    /// <inheritdoc/>
    public void Remove(long price)
    {
        SortedSet<PriceLevel> levels = Levels;
        if (!levels.Remove(new PriceLevel(price, -1)))
        {
            throw new InvalidOperationException($"No level exists at price {price}.");
        }

        if (price == _bestPrice && levels.Count > 0)
        {
            PriceLevel best = levels.Min;
            _bestPrice = best.Price;
            _bestLevel = best.Level;
        }
    }

    /// <inheritdoc/>
    public readonly void VisitFromBest<TVisitor>(ref TVisitor visitor)
        where TVisitor : struct, ILevelVisitor, allows ref struct
    {
        foreach (PriceLevel entry in Levels)
        {
            if (!visitor.Visit(entry.Price, entry.Level))
            {
                return;
            }
        }
    }

    private readonly SortedSet<PriceLevel> Levels =>
        _levels ?? throw new InvalidOperationException("SortedTreeLevelIndex used before Initialize().");

    /// <summary>A tree entry; only <see cref="Price"/> takes part in ordering and lookup.</summary>
    private readonly record struct PriceLevel(long Price, int Level);

    /// <summary>Orders entries best first for one side. Stateless, so one instance per direction is shared.</summary>
    private sealed class BestFirst(bool highestFirst) : IComparer<PriceLevel>
    {
        public static readonly BestFirst Ascending = new(highestFirst: false);
        public static readonly BestFirst Descending = new(highestFirst: true);

        public int Compare(PriceLevel x, PriceLevel y) =>
            highestFirst ? y.Price.CompareTo(x.Price) : x.Price.CompareTo(y.Price);
    }
}
