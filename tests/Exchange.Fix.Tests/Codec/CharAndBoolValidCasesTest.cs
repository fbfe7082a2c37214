using Exchange.Fix.Codec;
using Xunit;
using static Exchange.Fix.Tests.Codec.FieldTypeTestData;

namespace Exchange.Fix.Tests.Codec;

public class CharAndBoolValidCasesTest
{
    [Theory]
    [InlineData("1", (byte)'1')]
    [InlineData("A", (byte)'A')]
    [InlineData("~", (byte)'~')]
    public void Char_Parses(string text, byte expected)
    {
        Assert.Equal(FieldStatus.Ok, FixChar.TryParse(Ascii(text), out byte value));
        Assert.Equal(expected, value);
    }

    [Theory]
    [InlineData("Y", true)]
    [InlineData("N", false)]
    public void Bool_Parses(string text, bool expected)
    {
        Assert.Equal(FieldStatus.Ok, FixBool.TryParse(Ascii(text), out bool value));
        Assert.Equal(expected, value);
    }
}
