using Exchange.Core.Strategies;

namespace Exchange.Strategies.LevelIndexes;

/// <summary>
/// A fixed tick ladder for an instrument with a price band: one cell per valid price, found by direct index.
/// </summary>
/// <remarks>
/// <para>
/// Cell <c>i</c> holds the level slot at price <c>firstPrice + i * tickSize</c>, or -1 when that price has no level;
/// <c>firstPrice</c> is the lowest multiple of the tick in the band. Level slots must not be negative.
/// Lookup, insert and delete are O(1). The indexes of the best and the worst occupied cells are tracked; removing the
/// best (or worst) level scans toward the other end to the next occupied cell, so the scan is bounded by the side's
/// spread of prices, and in a real book the next level is usually a few ticks away.
/// <see cref="VisitFromBest{TVisitor}"/> walks cells from best to worst, skipping empty ones.
/// </para>
/// <para>
/// Memory: 4 bytes per tick in the band per side, allocated by <see cref="Initialize"/>; nothing is allocated after it.
/// Prices must be on tick and inside the band (the engine validates them); <see cref="TryGet"/> answers false for a
/// price outside the band instead of failing.
/// </para>
/// </remarks>
public struct TickLadderLevelIndex : IPriceLevelIndex
{
    private const int Empty = -1;

    private int[]? _cells;
    private long _firstPrice;
    private long _tickSize;
    /// <summary>+1 when worse prices have higher indexes (asks), -1 when they have lower ones (bids).</summary>
    private int _towardWorse;
    private int _count;
    private int _best;
    private int _worst;

    /// <inheritdoc/>
    public void Initialize(bool bestIsHighest, long minPrice, long maxPrice, long tickSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(tickSize);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxPrice, minPrice);

        // Valid prices are multiples of the tick (see Instrument); the band's edges need not be, so the ladder runs from
        // the first multiple at or above minPrice to the last at or below maxPrice.
        long firstPrice = RoundUpToTick(minPrice, tickSize);
        long lastPrice = RoundDownToTick(maxPrice, tickSize);
        long cellCount = lastPrice < firstPrice ? 0 : (lastPrice - firstPrice) / tickSize + 1;
        if (cellCount > Array.MaxLength)
        {
            throw new ArgumentOutOfRangeException(
                nameof(maxPrice),
                $"A tick ladder over [{minPrice}, {maxPrice}] with tick {tickSize} needs {cellCount} cells; at most {Array.MaxLength} fit.");
        }

        if (_cells is null || _cells.Length != cellCount)
        {
            _cells = new int[cellCount];
        }

        Array.Fill(_cells, Empty);
        _firstPrice = firstPrice;
        _tickSize = tickSize;
        _towardWorse = bestIsHighest ? -1 : 1;
        _count = 0;
        _best = Empty;
        _worst = Empty;
    }

    /// <inheritdoc/>
    public readonly int Count => _count;

    /// <inheritdoc/>
    public readonly bool TryGetBest(out long price, out int level)
    {
        if (_count == 0)
        {
            price = 0;
            level = -1;
            return false;
        }

        price = PriceAt(_best);
        level = Cells[_best];
        return true;
    }

    /// <inheritdoc/>
    public readonly bool TryGet(long price, out int level)
    {
        int[] cells = Cells;
        long index = (price - _firstPrice) / _tickSize;
        if ((ulong)index >= (ulong)cells.Length)
        {
            level = -1;
            return false;
        }

        level = cells[index];
        return level != Empty;
    }

    /// <inheritdoc/>
    public void Add(long price, int level)
    {
        // -1 marks an empty cell, so a negative level slot would corrupt the ladder.
        ArgumentOutOfRangeException.ThrowIfNegative(level);
        int[] cells = Cells;
        int index = IndexOf(price);
        if (cells[index] != Empty)
        {
            throw new InvalidOperationException($"A level already exists at price {price}.");
        }

        cells[index] = level;
        if (_count++ == 0)
        {
            _best = index;
            _worst = index;
        }
        else if (IsBetter(index, _best))
        {
            _best = index;
        }
        else if (IsBetter(_worst, index))
        {
            _worst = index;
        }
    }

    /// <inheritdoc/>
    public void Remove(long price)
    {
        int[] cells = Cells;
        int index = IndexOf(price);
        if (cells[index] == Empty)
        {
            throw new InvalidOperationException($"No level exists at price {price}.");
        }

        cells[index] = Empty;
        if (--_count == 0)
        {
            _best = Empty;
            _worst = Empty;
        }
        else if (index == _best)
        {
            // Another level exists, so the scan stops at the latest at _worst.
            do
            {
                _best += _towardWorse;
            }
            while (cells[_best] == Empty);
        }
        else if (index == _worst)
        {
            do
            {
                _worst -= _towardWorse;
            }
            while (cells[_worst] == Empty);
        }
    }

    /// <inheritdoc/>
    public readonly void VisitFromBest<TVisitor>(ref TVisitor visitor)
        where TVisitor : struct, ILevelVisitor, allows ref struct
    {
        if (_count == 0)
        {
            return;
        }

        int[] cells = Cells;
        for (int index = _best; ; index += _towardWorse)
        {
            int level = cells[index];
            if (level != Empty && !visitor.Visit(PriceAt(index), level))
            {
                return;
            }

            if (index == _worst)
            {
                return;
            }
        }
    }

    private readonly int[] Cells =>
        _cells ?? throw new InvalidOperationException("TickLadderLevelIndex used before Initialize().");

    private static long RoundUpToTick(long price, long tickSize)
    {
        long remainder = price % tickSize;
        return remainder == 0 ? price : price - remainder + (remainder > 0 ? tickSize : 0);
    }

    private static long RoundDownToTick(long price, long tickSize)
    {
        long remainder = price % tickSize;
        return price - remainder - (remainder < 0 ? tickSize : 0);
    }

    private readonly int IndexOf(long price) => checked((int)((price - _firstPrice) / _tickSize));

    private readonly long PriceAt(int index) => _firstPrice + index * _tickSize;

    /// <summary>True when cell <paramref name="a"/> holds a better price than cell <paramref name="b"/>.</summary>
    private readonly bool IsBetter(int a, int b) => (a - b) * _towardWorse < 0;
}
