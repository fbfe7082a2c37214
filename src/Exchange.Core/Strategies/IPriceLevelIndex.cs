namespace Exchange.Core.Strategies;

/// <summary>
/// Strategy family 2: one side of one book, mapping price to the engine's price-level slot, ordered best first.
/// </summary>
/// <remarks>
/// Contract: implementations are structs held by the book and reached through a constrained generic parameter (direct
/// calls). "Best" is the highest price on the bid side and the lowest on the ask side. Prices passed in are already
/// validated by the engine: positive, on tick and inside [minPrice, maxPrice]. Level slots are non-negative. Only the
/// matcher thread calls these. The index must not be changed from inside <see cref="VisitFromBest{TVisitor}"/>.
/// Like order lists, an index is a struct used in place, never copied.
/// </remarks>
public interface IPriceLevelIndex
{
    /// <summary>Prepares an empty index. Called once per book side before any other member.</summary>
    /// <param name="bestIsHighest">True for bids.</param>
    /// <param name="minPrice">Lowest price that will ever be added.</param>
    /// <param name="maxPrice">Highest price that will ever be added.</param>
    /// <param name="tickSize">Distance between valid prices.</param>
    void Initialize(bool bestIsHighest, long minPrice, long maxPrice, long tickSize);

    /// <summary>Number of price levels.</summary>
    int Count { get; }

    /// <summary>The best price and its level slot; false when the side is empty.</summary>
    bool TryGetBest(out long price, out int level);

    /// <summary>The level slot at <paramref name="price"/>; false when there is none.</summary>
    bool TryGet(long price, out int level);

    /// <summary>Adds a level at a price that has none.</summary>
    void Add(long price, int level);

    /// <summary>Removes the level at a price that has one.</summary>
    void Remove(long price);

    /// <summary>Calls the visitor for each level from the best, until it returns false or the side ends.</summary>
    void VisitFromBest<TVisitor>(ref TVisitor visitor)
        where TVisitor : struct, ILevelVisitor, allows ref struct;
}
