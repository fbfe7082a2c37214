using Exchange.Fix.Codec;
using Xunit;
using static Exchange.Fix.Tests.Codec.FieldTypeTestData;

namespace Exchange.Fix.Tests.Codec;

public class PriceInvalidCasesTest
{
    [Theory]
    [InlineData("143.425", 2)]
    [InlineData("0.00001", 4)]
    [InlineData("1.5", 0)]
    [InlineData("1.0000000001", 4)]
    public void MoreSignificantDecimals_AreOffScale_NeverRounded(string text, int decimals)
    {
        Assert.Equal(FieldStatus.OffScale, FixPrice.TryParse(Ascii(text), decimals, out long units));
        Assert.Equal(0, units);
    }

    [Theory]
    [InlineData("")]
    [InlineData(".")]
    [InlineData("-")]
    [InlineData("1.2.3")]
    [InlineData("1,5")]
    [InlineData("+1")]
    [InlineData("1e5")]
    [InlineData(" 1")]
    [InlineData("abc")]
    public void Malformed_IsRejected(string text)
    {
        Assert.Equal(FieldStatus.Malformed, FixPrice.TryParse(Ascii(text), 4, out _));
        Assert.False(FixPrice.IsWellFormed(Ascii(text)));
    }

    [Theory]
    [InlineData("922337203685477.5808", 4)]
    [InlineData("99999999999999999999", 0)]
    [InlineData("10000000000", 9)]
    public void Overflow_IsOutOfRange(string text, int decimals)
    {
        Assert.Equal(FieldStatus.OutOfRange, FixPrice.TryParse(Ascii(text), decimals, out _));
    }
}
