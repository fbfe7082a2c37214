using Exchange.Core.Domain;

namespace Exchange.Core.Engine;

/// <summary>
/// The fields of an <see cref="Instrument"/> that every order is validated against, copied into a flat array so the
/// check reads one 32-byte struct instead of dereferencing an instrument object (a likely cache miss across 1,000s of
/// instruments).
/// </summary>
internal readonly struct TradingLimits(Instrument instrument)
{
    public readonly long TickSize = instrument.TickSize;
    public readonly long LotSize = instrument.LotSize;
    public readonly long MinPrice = instrument.MinPrice;
    public readonly long MaxPrice = instrument.MaxPrice;
}
