using Exchange.Fix.Codec;
using Xunit;
using static Exchange.Fix.Tests.Codec.FieldTypeTestData;

namespace Exchange.Fix.Tests.Codec;

public class CharAndBoolInvalidCasesTest
{
    [Theory]
    [InlineData("")]
    [InlineData("12")]
    [InlineData(" ")]
    [InlineData("\u007f")]
    public void Char_IsRejected(string text)
    {
        Assert.Equal(FieldStatus.Malformed, FixChar.TryParse(Ascii(text), out _));
    }

    [Theory]
    [InlineData("")]
    [InlineData("y")]
    [InlineData("n")]
    [InlineData("YES")]
    [InlineData("1")]
    [InlineData("T")]
    public void Bool_IsRejected(string text)
    {
        Assert.Equal(FieldStatus.Malformed, FixBool.TryParse(Ascii(text), out _));
    }
}
