using Exchange.Core.Domain;
using Exchange.Core.Events;

namespace Exchange.Benchmarks.Fix;

/// <summary>The Java study's reference fill (AAPL, ClOrdID C056, 1000 @ 143.42 of 2000) as an engine event.</summary>
internal static class ReferenceFill
{
    public static EngineEvent Create(long timestampNanos) => new()
    {
        Type = EventType.Trade,
        Side = Side.Buy,
        OrderType = OrderType.Limit,
        OrderId = 123_456_789,
        Price = 1_434_200,
        OrderQuantity = 2000,
        LeavesQuantity = 100,
        CumulativeQuantity = 1900,
        CumulativeNotional = 1900L * 1_434_000,
        LastPrice = 1_434_200,
        LastQuantity = 1000,
        EventId = 1111,
        Timestamp = timestampNanos,
        ClOrdId = ClOrdId.From("C056"),
    };
}
