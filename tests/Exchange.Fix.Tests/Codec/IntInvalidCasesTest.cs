using Exchange.Fix.Codec;
using Xunit;
using static Exchange.Fix.Tests.Codec.FieldTypeTestData;

namespace Exchange.Fix.Tests.Codec;

public class IntInvalidCasesTest
{
    [Theory]
    [InlineData("", FieldStatus.Malformed)]
    [InlineData("-", FieldStatus.Malformed)]
    [InlineData("+5", FieldStatus.Malformed)]
    [InlineData("1.0", FieldStatus.Malformed)]
    [InlineData("12a", FieldStatus.Malformed)]
    [InlineData(" 1", FieldStatus.Malformed)]
    [InlineData("9223372036854775808", FieldStatus.OutOfRange)]
    [InlineData("-9223372036854775809", FieldStatus.OutOfRange)]
    [InlineData("99999999999999999999999", FieldStatus.OutOfRange)]
    [InlineData("99999999999999999999999x", FieldStatus.Malformed)]
    public void Long_IsRejected(string text, FieldStatus expected)
    {
        Assert.Equal(expected, FixInt.TryParse(Ascii(text), out long _));
    }

    [Theory]
    [InlineData("2147483648")]
    [InlineData("-2147483649")]
    public void Int_Overflow_IsOutOfRange(string text)
    {
        Assert.Equal(FieldStatus.OutOfRange, FixInt.TryParse(Ascii(text), out int _));
    }
}
