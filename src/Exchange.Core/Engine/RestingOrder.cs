using Exchange.Core.Domain;

namespace Exchange.Core.Engine;

/// <summary>A read-only view of one resting order, for state comparisons and diagnostics.</summary>
public readonly record struct RestingOrder(
    long OrderId,
    int OwnerId,
    ClOrdId ClOrdId,
    Side Side,
    long Price,
    long OrderQuantity,
    long LeavesQuantity,
    long CumulativeQuantity);
