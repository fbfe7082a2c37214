using Exchange.Core.Commands;
using Exchange.Core.Events;
using Exchange.Core.MarketData;

namespace Exchange.Core.Engine;

/// <summary>
/// The matching engine for all instruments. Closed over its strategies at start-up; the host reaches it through this
/// interface once per command, while strategy calls inside are direct.
/// </summary>
/// <remarks>
/// Threading: single writer. Every member is called from the one thread that owns the books.
/// Determinism: the output depends only on the sequence of commands (no clock, no randomness inside).
/// </remarks>
public interface IMatchingEngine
{
    /// <summary>
    /// Applies one command and returns its events in order. The span points into a buffer the engine reuses: it is
    /// valid until the next call.
    /// </summary>
    ReadOnlySpan<EngineEvent> Process(in Command command);

    /// <summary>
    /// Writes every page of the engine's preallocated tables once (order slots, level slots, the live-order index, the
    /// day's used-id set), so that the first orders do not take their page faults; returns the bytes covered. For a
    /// venue at start-up: it makes all of that memory resident.
    /// </summary>
    long PreFault();

    /// <summary>Fills the top levels of one book (best first).</summary>
    void CopyDepth(int instrumentId, ref BookDepth depth);

    /// <summary>Number of orders resting across all books.</summary>
    int RestingOrderCount { get; }

    /// <summary>
    /// Client order ids recorded since the trading day began, all owners together; new orders and replaces are refused
    /// once it reaches <see cref="EngineOptions.MaxClOrdIdsPerDay"/>.
    /// </summary>
    int ClOrdIdsUsedToday { get; }

    /// <summary>
    /// The resting orders of one side of one book in priority order (best price first, then time). Allocates: for tests,
    /// recovery checks and diagnostics, never the hot path.
    /// </summary>
    IReadOnlyList<RestingOrder> GetRestingOrders(int instrumentId, Domain.Side side);
}
