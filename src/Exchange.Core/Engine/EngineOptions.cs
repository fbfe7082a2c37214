namespace Exchange.Core.Engine;

/// <summary>
/// Sizing of the engine's pools. Pools are allocated up front so steady state allocates nothing; if a pool must grow it
/// doubles (an allocation counted as warm-up, never per command).
/// </summary>
public sealed record EngineOptions
{
    /// <summary>
    /// The largest <see cref="MaxClOrdIdsPerDay"/> the engine accepts: the used-id table then has 2^28 entries (2 GiB)
    /// and the keys take 5 GiB, the orders they name 5 GiB more.
    /// </summary>
    public const int LargestMaxClOrdIdsPerDay = 1 << 27;

    /// <summary>The default <see cref="MaxClOrdIdsPerDay"/>.</summary>
    public const int DefaultMaxClOrdIdsPerDay = 1 << 20;

    /// <summary>Order slots allocated at start (resting orders across all books).</summary>
    public int InitialOrderCapacity { get; init; } = 1 << 16;

    /// <summary>Price-level slots allocated at start (across all books and sides).</summary>
    public int InitialLevelCapacity { get; init; } = 1 << 12;

    /// <summary>Hard cap on resting orders; a new order past it is rejected with CapacityExceeded.</summary>
    public int MaxOrders { get; init; } = 1 << 24;

    /// <summary>
    /// Client order ids one trading day can use, across all owners (1 to 2^27). Allocated whole at start and never grown
    /// (about 104 bytes per id: unless <see cref="IMatchingEngine.PreFault"/> makes it all resident, the 40-byte
    /// keys and 48-byte order records are backed as ids are used and the table soon in full). Once a day has used
    /// them all, new orders and replaces are rejected with ClOrdIdCapacityExceeded until the next day; cancels still work.
    /// A GoodTillCancel order carried over from an earlier day takes one of the day's ids when it ends or is replaced
    /// (so its id stays used), none while it rests.
    /// </summary>
    public int MaxClOrdIdsPerDay { get; init; } = DefaultMaxClOrdIdsPerDay;
}
