using Exchange.Core.Domain;

namespace Exchange.Core.Engine;

/// <summary>
/// The fields of an <see cref="Instrument"/> that every order is validated against, copied into a flat array so the
/// check reads one 32-byte struct instead of dereferencing an instrument object (a likely cache miss across 1,000s of
/// instruments).
/// </summary>
internal readonly struct TradingLimits(Instrument instrument, int maxOrders)
{
    public readonly long TickSize = instrument.TickSize;
    public readonly long LotSize = instrument.LotSize;
    public readonly long MinPrice = instrument.MinPrice;
    public readonly long MaxPrice = instrument.MaxPrice;

    /// <summary>
    /// The instrument's <see cref="Instrument.MaxOrderQuantity"/>, lowered so that every sum the engine keeps fits a
    /// long: an order's notional (at most MaxPrice × quantity, as every fill is at a resting limit price inside the
    /// band) and the quantity resting at a level or across a side (at most <paramref name="maxOrders"/> orders).
    /// </summary>
    public readonly long MaxQuantity = Math.Min(
        instrument.MaxOrderQuantity,
        Math.Min(long.MaxValue / Math.Max(instrument.MaxPrice, 1), long.MaxValue / Math.Max(maxOrders, 1)));
}
