using System.Globalization;
using System.Numerics;
using System.Text.RegularExpressions;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Mapping;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// AvgPx (6) takes a 64-bit division when notional * 10^4 fits a long and Int128 otherwise; both must give the same
/// text as an independent BigInteger reference: notional / quantity at the instrument's decimals + 4 (fewer when the
/// average would not fit a long), rounded half-up, shortest form.
/// </summary>
public class ExecutionReportAveragePriceTests
{
    [Theory]
    [InlineData(1900L * 1_434_000, 1900L, 4, "143.4")]
    [InlineData(1L, 3L, 4, "0.00003333")] // 0.0000333.. rounds down
    [InlineData(2L, 3L, 4, "0.00006667")] // 0.0000666.. rounds up
    [InlineData(1L, 2L, 4, "0.00005")] // exact at the extra precision
    [InlineData(long.MaxValue / 10_000, 7L, 4, null)] // the largest notional on the 64-bit path
    [InlineData((long.MaxValue / 10_000) + 1, 7L, 4, null)] // the smallest on the Int128 path
    [InlineData(long.MaxValue, 3L, 4, "307445734561825.8602")] // too large at 8 decimals: extra decimals given up
    [InlineData(long.MaxValue, 1L, 4, "922337203685477.5807")]
    [InlineData(long.MaxValue, long.MaxValue, 2, "0.01")]
    [InlineData(5L, 1L, 16, "0.0000000000000005")] // only 2 extra decimals fit under the 18-decimal cap
    public void AvgPx_MatchesReference(long notional, long quantity, int priceDecimals, string? expected)
    {
        string reference = Reference(notional, quantity, priceDecimals);
        if (expected is not null)
        {
            Assert.Equal(expected, reference);
        }

        Assert.Equal(reference, AvgPx(notional, quantity, priceDecimals));
    }

    [Fact]
    public void AvgPx_MatchesReference_OverRandomFills()
    {
        var random = new Random(31337);
        for (int i = 0; i < 5_000; i++)
        {
            long quantity = random.NextInt64(1, 1_000_000_000);
            long notional = random.Next(3) switch
            {
                0 => quantity * random.NextInt64(1, 10_000_000), // on the price grid
                1 => random.NextInt64(0, long.MaxValue / 10_000), // 64-bit path
                _ => random.NextInt64(long.MaxValue / 10_000, long.MaxValue), // Int128 path
            };
            Assert.Equal(Reference(notional, quantity, 4), AvgPx(notional, quantity, 4));
        }
    }

    [Fact]
    public void AvgPx_IsZero_BeforeAnyFill() => Assert.Equal("0", AvgPx(0, 0, 4));

    /// <summary>
    /// Fills all at LastPx skip the division (notional == LastPx * CumQty, compared in 128 bits): the average is then
    /// LastPx exactly; a product that only matches after wrapping around 64 bits must not take that shortcut.
    /// </summary>
    [Theory]
    [InlineData(1000L * 1_434_200, 1000L, 1_434_200L, "143.42")] // a first fill
    [InlineData(1900L * 1_434_200, 1900L, 1_434_200L, "143.42")] // several fills at one price
    [InlineData(1900L * 1_434_000, 1900L, 1_434_200L, "143.4")] // at another price: divided
    [InlineData(4L, 4L, (1L << 62) + 1, "0.0001")] // LastPx * 4 wraps to 4: not the average
    [InlineData(long.MaxValue, 1L, long.MaxValue, "922337203685477.5807")] // the largest exact product
    [InlineData(0L, 5L, 0L, "0")]
    public void AvgPx_OfFillsAtOnePrice_IsLastPx(long notional, long quantity, long lastPrice, string expected)
    {
        Assert.Equal(expected, Reference(notional, quantity, 4));
        Assert.Equal(expected, AvgPx(notional, quantity, 4, lastPrice));
    }

    private static string AvgPx(long notional, long quantity, int priceDecimals, long lastPrice = 1)
    {
        var e = new EngineEvent
        {
            Type = EventType.Trade,
            Side = Side.Buy,
            OrderType = OrderType.Market,
            OrderId = 1,
            OrderQuantity = Math.Max(quantity, 1),
            CumulativeQuantity = quantity,
            CumulativeNotional = notional,
            LastPrice = lastPrice,
            LastQuantity = 1,
            EventId = 1,
            ClOrdId = ClOrdId.From("A"),
        };
        var buffer = new byte[1024];
        int length = ExecutionReportEncoder.EncodeBody(buffer, e, "X"u8, priceDecimals);
        Match match = Regex.Match(FixTestMessages.Show(buffer.AsSpan(0, length)), @"(?:^|\|)6=([^|]*)\|");
        Assert.True(match.Success);
        return match.Groups[1].Value;
    }

    private static string Reference(long notional, long quantity, int priceDecimals)
    {
        for (int extra = Math.Min(4, 18 - priceDecimals); ; extra--)
        {
            int decimals = priceDecimals + extra;
            BigInteger scaled = (BigInteger)notional * BigInteger.Pow(10, extra);
            BigInteger average = BigInteger.DivRem(scaled, quantity, out BigInteger remainder);
            if (remainder * 2 >= quantity)
            {
                average += 1;
            }

            if (average > long.MaxValue && extra > 0)
            {
                continue;
            }

            BigInteger whole = BigInteger.DivRem(average, BigInteger.Pow(10, decimals), out BigInteger fraction);
            string text = whole.ToString(CultureInfo.InvariantCulture);
            return fraction.IsZero ? text : text + "." + fraction.ToString(CultureInfo.InvariantCulture).PadLeft(decimals, '0').TrimEnd('0');
        }
    }
}
