using Exchange.Core.Domain;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// Instruments for engine tests: 4 price decimals, tick 100 units (one cent), and a band of [100.00, 200.00] so a
/// direct-indexed tick ladder can hold every valid price. Instrument 0 trades in lots of 10, the others in lots of 1.
/// </summary>
public static class TestInstruments
{
    public const long Tick = 100;
    public const long MinPrice = 1_000_000;
    public const long MaxPrice = 2_000_000;

    /// <summary>A price in the middle of the band.</summary>
    public const long Mid = 1_500_000;

    public static IReadOnlyList<Instrument> Create(int count = 3)
    {
        var instruments = new Instrument[count];
        for (int i = 0; i < count; i++)
        {
            instruments[i] = new Instrument(i, $"SYM{i}", 4, Tick, i == 0 ? 10 : 1, MinPrice, MaxPrice);
        }

        return instruments;
    }

    /// <summary>Mid plus a number of ticks.</summary>
    public static long P(int ticks) => Mid + (ticks * Tick);
}
