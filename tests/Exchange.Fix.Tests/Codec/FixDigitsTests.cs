using System.Globalization;
using System.Numerics;
using System.Text;
using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// The outbound number formatting (FixDigits) against an independent reference (ToString / BigInteger), at every
/// path boundary (pair table below 10^4, one 8-digit word below 10^8, head + block below 10^16, three parts above)
/// and over seeded random values; and its store contract: integers write nothing past their length + Slack, prices
/// nothing past MaxChars + Slack (a long fraction is written at full width before its zeros are cut).
/// </summary>
public class FixDigitsTests
{
    private const byte Sentinel = 0xEE;

    public static TheoryData<ulong> Boundaries()
    {
        // 0 comes from the loop (10^0 - 1); listing it here too made xUnit skip the duplicate case with a warning.
        var data = new TheoryData<ulong> { ulong.MaxValue, long.MaxValue, (ulong)long.MaxValue + 1 };
        for (ulong power = 1; power <= 10_000_000_000_000_000_000UL; power *= 10)
        {
            data.Add(power - 1);
            data.Add(power);
            data.Add(power + 1);
            if (power > ulong.MaxValue / 10)
            {
                break;
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Boundaries))]
    public void WriteUnsigned_MatchesToString_AtPathBoundaries(ulong value) => AssertUnsigned(value);

    [Fact]
    public void WriteUnsigned_MatchesToString_OverRandomMagnitudes()
    {
        var random = new Random(20240315);
        for (int i = 0; i < 20_000; i++)
        {
            int bits = random.Next(0, 65);
            ulong value = bits == 0 ? 0 : (ulong)random.NextInt64() >> (64 - bits) | (bits == 64 ? 1UL << 63 : 0);
            AssertUnsigned(value);
        }
    }

    [Theory]
    [InlineData(0L, 0, "0")]
    [InlineData(0L, 4, "0")]
    [InlineData(1_434_200L, 4, "143.42")]
    [InlineData(1_434_000L, 4, "143.4")]
    [InlineData(1_000_000L, 4, "100")]
    [InlineData(5L, 2, "0.05")]
    [InlineData(-5L, 2, "-0.05")]
    [InlineData(99_999_999L, 7, "9.9999999")]
    [InlineData(99_999_999L, 1, "9999999.9")]
    [InlineData(100_000_000L, 7, "10")]
    [InlineData(100_000_001L, 7, "10.0000001")]
    [InlineData(14_340_000_000L, 8, "143.4")]
    [InlineData(14_340_001_053L, 8, "143.40001053")]
    [InlineData(1L, 18, "0.000000000000000001")]
    [InlineData(long.MaxValue, 18, "9.223372036854775807")]
    [InlineData(long.MinValue, 18, "-9.223372036854775808")]
    [InlineData(long.MinValue, 0, "-9223372036854775808")]
    [InlineData(long.MaxValue, 9, "9223372036.854775807")]
    public void WritePrice_WritesTheShortestExactForm(long units, int decimals, string expected)
    {
        Assert.Equal(expected, FormatPrice(units, decimals));
        Assert.Equal(expected, Reference(units, decimals));
    }

    [Fact]
    public void WritePrice_MatchesBigIntegerReference_ForEveryScaleOverRandomValues()
    {
        var random = new Random(4242);
        for (int decimals = 0; decimals <= FixPrice.MaxDecimals; decimals++)
        {
            for (int i = 0; i < 2_000; i++)
            {
                int bits = random.Next(1, 64);
                long units = random.NextInt64() >> (63 - bits);
                if (random.Next(4) == 0)
                {
                    units -= units % (long)BigInteger.Pow(10, random.Next(0, Math.Min(decimals, 18) + 1)); // trailing zeros
                }

                Assert.Equal(Reference(units, decimals), FormatPrice(units, decimals));
            }
        }
    }

    [Fact]
    public void FixPriceFormat_RoundTripsThroughTryParse()
    {
        var random = new Random(99);
        var buffer = new byte[FixPrice.MaxChars];
        for (int i = 0; i < 5_000; i++)
        {
            int decimals = random.Next(0, FixPrice.MaxDecimals + 1);
            long units = random.NextInt64(long.MinValue + 1, long.MaxValue);
            int length = FixPrice.Format(units, decimals, buffer);
            Assert.Equal(FieldStatus.Ok, FixPrice.TryParse(buffer.AsSpan(0, length), decimals, out long back));
            Assert.Equal(units, back);
        }
    }

    [Fact]
    public void WriteFixed_KeepsLeadingZeros()
    {
        var buffer = new byte[16];
        FixDigits.WriteFixed(ref buffer[0], 7, 3);
        Assert.Equal("007", Encoding.ASCII.GetString(buffer, 0, 3));
        FixDigits.WriteFixed(ref buffer[0], 0, 8);
        Assert.Equal("00000000", Encoding.ASCII.GetString(buffer, 0, 8));
        FixDigits.WriteFixed(ref buffer[0], 99_999_999, 8);
        Assert.Equal("99999999", Encoding.ASCII.GetString(buffer, 0, 8));
    }

    private static void AssertUnsigned(ulong value)
    {
        byte[] buffer = NewBuffer();
        int length = FixDigits.WriteUnsigned(ref buffer[0], value);
        Assert.Equal(value.ToString(CultureInfo.InvariantCulture), Encoding.ASCII.GetString(buffer, 0, length));
        AssertUntouchedAfter(buffer, length + FixDigits.Slack);
    }

    private static string FormatPrice(long units, int decimals)
    {
        byte[] buffer = NewBuffer();
        int length = FixDigits.WritePrice(ref buffer[0], units, decimals);
        Assert.InRange(length, 1, FixPrice.MaxChars);
        AssertUntouchedAfter(buffer, decimals <= 8 ? length + FixDigits.Slack : FixPrice.MaxChars + FixDigits.Slack);
        return Encoding.ASCII.GetString(buffer, 0, length);
    }

    private static byte[] NewBuffer()
    {
        var buffer = new byte[FixPrice.MaxChars + FixDigits.Slack + 16];
        Array.Fill(buffer, Sentinel);
        return buffer;
    }

    private static void AssertUntouchedAfter(byte[] buffer, int from)
    {
        for (int i = from; i < buffer.Length; i++)
        {
            Assert.Equal(Sentinel, buffer[i]);
        }
    }

    /// <summary>Independent reference: BigInteger division, fraction padded to the scale, trailing zeros cut.</summary>
    private static string Reference(long units, int decimals)
    {
        BigInteger magnitude = BigInteger.Abs(units);
        BigInteger scale = BigInteger.Pow(10, decimals);
        BigInteger whole = BigInteger.DivRem(magnitude, scale, out BigInteger fraction);
        string text = (units < 0 ? "-" : string.Empty) + whole.ToString(CultureInfo.InvariantCulture);
        if (fraction.IsZero)
        {
            return text;
        }

        return text + "." + fraction.ToString(CultureInfo.InvariantCulture).PadLeft(decimals, '0').TrimEnd('0');
    }
}
