using Exchange.Fix.Codec;
using Xunit;
using static Exchange.Fix.Tests.Codec.FieldTypeTestData;

namespace Exchange.Fix.Tests.Codec;

public class PriceValidCasesTest
{
    [Theory]
    [InlineData("143.42", 4, 1_434_200L)]
    [InlineData("143.4200000", 4, 1_434_200L)]
    [InlineData("143", 4, 1_430_000L)]
    [InlineData("143.", 2, 14_300L)]
    [InlineData(".5", 1, 5L)]
    [InlineData("0.0001", 4, 1L)]
    [InlineData("-2.5", 2, -250L)]
    [InlineData("100", 0, 100L)]
    [InlineData("100.000", 0, 100L)]
    [InlineData("922337203685477.5807", 4, long.MaxValue)]
    public void Parses_Exactly(string text, int decimals, long expected)
    {
        Assert.Equal(FieldStatus.Ok, FixPrice.TryParse(Ascii(text), decimals, out long units));
        Assert.Equal(expected, units);
    }

    [Theory]
    [InlineData(1_434_200L, 4, "143.42")]
    [InlineData(1_434_000L, 4, "143.4")]
    [InlineData(1_000_000L, 4, "100")]
    [InlineData(1L, 4, "0.0001")]
    [InlineData(-250L, 2, "-2.5")]
    [InlineData(0L, 2, "0")]
    [InlineData(42L, 0, "42")]
    public void Formats_InShortestExactForm(long units, int decimals, string expected)
    {
        var buffer = new byte[FixPrice.MaxChars];
        int length = FixPrice.Format(units, decimals, buffer);
        Assert.Equal(expected, FixTestMessages.Show(buffer.AsSpan(0, length)));
        Assert.Equal(FieldStatus.Ok, FixPrice.TryParse(buffer.AsSpan(0, length), decimals, out long back));
        Assert.Equal(units, back);
    }
}
