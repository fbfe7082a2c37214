namespace Exchange.Core.Strategies;

/// <summary>
/// Strategy family 1: the queue of resting orders at one price level, in time priority.
/// </summary>
/// <remarks>
/// Contract: implementations are structs stored inline in a price-level slot and reached through a generic parameter
/// constrained to this interface, so every call is a direct, inlinable call (no interface dispatch). Orders are named
/// by their slot index in the engine's order store. Each slot carries an <see cref="OrderListLinks"/> entry that belongs
/// to the strategy (intrusive links, a position, a pooled node...). A default-valued struct must not be used before
/// <see cref="Clear"/>. Only the matcher thread calls these members.
/// <para>The struct holds state by value, so callers reach it by reference (an array element or a ref local) and never
/// copy it. While walking with <see cref="Next"/>, read the next slot before removing the current one: Next of a
/// removed slot is undefined. The engine never clears a slot's links on reuse, so a strategy may pool data there.</para>
/// </remarks>
public interface IOrderList
{
    /// <summary>Number of orders queued.</summary>
    int Count { get; }

    /// <summary>Empties the list (used when a level slot is taken from the pool).</summary>
    void Clear();

    /// <summary>Appends <paramref name="slot"/> at the back (lowest time priority).</summary>
    void AddLast(OrderListLinks[] links, int slot);

    /// <summary>Removes <paramref name="slot"/>, which must be in this list.</summary>
    void Remove(OrderListLinks[] links, int slot);

    /// <summary>The slot with the highest time priority, or -1 when empty.</summary>
    int First(OrderListLinks[] links);

    /// <summary>The slot after <paramref name="slot"/> in priority order, or -1 at the end.</summary>
    int Next(OrderListLinks[] links, int slot);
}
