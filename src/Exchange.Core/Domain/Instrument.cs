namespace Exchange.Core.Domain;

/// <summary>
/// A tradable instrument. Prices everywhere in the engine are <see cref="long"/> counts of the price unit
/// 10^-<see cref="PriceDecimals"/> (for example 4 decimals: 1 unit = 0.0001). A valid price is a positive
/// multiple of <see cref="TickSize"/> inside the band; a valid quantity a positive multiple of <see cref="LotSize"/>.
/// </summary>
/// <param name="Id">Dense index 0..n-1; books are found by it, never by symbol on the hot path.</param>
/// <param name="Symbol">FIX Symbol (55).</param>
/// <param name="PriceDecimals">Decimal places of one price unit.</param>
/// <param name="TickSize">Minimum price increment, in price units.</param>
/// <param name="LotSize">Minimum quantity increment.</param>
/// <param name="MinPrice">Lowest accepted limit price (inclusive), in price units.</param>
/// <param name="MaxPrice">Highest accepted limit price (inclusive), in price units.</param>
/// <param name="MaxOrderQuantity">
/// Largest accepted order quantity (a fat-finger limit). The engine lowers it further where needed so that no sum it
/// keeps (an order's notional, a level's or a book side's quantity) can overflow a <see cref="long"/>.
/// </param>
public sealed record Instrument(
    int Id,
    string Symbol,
    int PriceDecimals,
    long TickSize,
    long LotSize,
    long MinPrice,
    long MaxPrice,
    long MaxOrderQuantity = long.MaxValue)
{
    /// <summary>Number of ticks in the band; what a direct-indexed tick ladder must hold.</summary>
    public long BandTicks => ((MaxPrice - MinPrice) / TickSize) + 1;
}
