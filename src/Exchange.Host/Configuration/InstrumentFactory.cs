using Exchange.Core.Domain;

namespace Exchange.Host.Configuration;

/// <summary>Turns validated instrument options into engine instruments with dense ids in configuration order.</summary>
public static class InstrumentFactory
{
    public static IReadOnlyList<Instrument> Create(IReadOnlyList<InstrumentOptions> options)
    {
        var result = new Instrument[options.Count];
        for (int i = 0; i < options.Count; i++)
        {
            InstrumentOptions o = options[i];
            long tick = Units(o.TickSize, o.PriceDecimals);
            result[i] = new Instrument(i, o.Symbol, o.PriceDecimals, tick, o.LotSize, Units(o.MinPrice, o.PriceDecimals), Units(o.MaxPrice, o.PriceDecimals), o.MaxOrderQuantity);
        }

        return result;
    }

    // Options were validated first, so a null here is a bug.
    private static long Units(string text, int decimals) =>
        VenueOptionsValidator.PriceUnits(null, "", text, decimals)
        ?? throw new InvalidOperationException($"Unvalidated price '{text}'.");
}
