using Exchange.Fix.Codec;
using Xunit;
using static Exchange.Fix.Tests.Codec.FieldTypeTestData;

namespace Exchange.Fix.Tests.Codec;

public class IntValidCasesTest
{
    [Theory]
    [InlineData("0", 0L)]
    [InlineData("7", 7L)]
    [InlineData("00042", 42L)]
    [InlineData("-15", -15L)]
    [InlineData("9223372036854775807", long.MaxValue)]
    [InlineData("-9223372036854775808", long.MinValue)]
    public void Long_Parses(string text, long expected)
    {
        Assert.Equal(FieldStatus.Ok, FixInt.TryParse(Ascii(text), out long value));
        Assert.Equal(expected, value);
    }

    [Theory]
    [InlineData("2147483647", int.MaxValue)]
    [InlineData("-2147483648", int.MinValue)]
    [InlineData("123", 123)]
    public void Int_Parses(string text, int expected)
    {
        Assert.Equal(FieldStatus.Ok, FixInt.TryParse(Ascii(text), out int value));
        Assert.Equal(expected, value);
    }

    [Theory]
    [InlineData(0L)]
    [InlineData(9L)]
    [InlineData(10L)]
    [InlineData(-1L)]
    [InlineData(long.MaxValue)]
    [InlineData(long.MinValue)]
    public void Format_RoundTrips(long value)
    {
        var buffer = new byte[FixInt.MaxLongChars];
        int length = FixInt.Format(value, buffer);
        Assert.Equal(value.ToString(System.Globalization.CultureInfo.InvariantCulture), FixTestMessages.Show(buffer.AsSpan(0, length)));
    }
}
