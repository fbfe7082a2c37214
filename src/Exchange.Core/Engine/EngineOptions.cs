namespace Exchange.Core.Engine;

/// <summary>
/// Sizing of the engine's pools. Pools are allocated up front so steady state allocates nothing; if a pool must grow it
/// doubles (an allocation counted as warm-up, never per command).
/// </summary>
public sealed record EngineOptions
{
    /// <summary>Order slots allocated at start (resting orders across all books).</summary>
    public int InitialOrderCapacity { get; init; } = 1 << 16;

    /// <summary>Price-level slots allocated at start (across all books and sides).</summary>
    public int InitialLevelCapacity { get; init; } = 1 << 12;

    /// <summary>Hard cap on resting orders; a new order past it is rejected with CapacityExceeded.</summary>
    public int MaxOrders { get; init; } = 1 << 24;
}
