using Exchange.Core.MarketData;

namespace Exchange.Fix.Mapping;

/// <summary>Constants and depth arithmetic shared by the market-data encoders.</summary>
internal static class MarketDataEntries
{
    public const byte Bid = (byte)'0';

    public const byte Offer = (byte)'1';

    /// <summary>Longest entry: 279, 269, a 32-byte symbol, price, size, order count, position.</summary>
    public const int MaxEntryLength = 160;

    /// <summary>
    /// Levels to publish on one side: the book's count capped by MarketDepth (0 = all) and
    /// <see cref="BookDepth.MaxLevels"/>, or none when the subscription's <paramref name="entryTypes"/> do not include
    /// <paramref name="side"/>.
    /// </summary>
    public static int Levels(int available, int marketDepth, byte entryTypes, byte side)
    {
        if ((entryTypes & side) == 0)
        {
            return 0;
        }

        int count = Math.Clamp(available, 0, BookDepth.MaxLevels);
        return marketDepth > 0 ? Math.Min(count, marketDepth) : count;
    }
}
