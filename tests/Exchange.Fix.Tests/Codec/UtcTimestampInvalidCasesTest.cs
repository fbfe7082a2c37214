using Exchange.Fix.Codec;
using Xunit;
using static Exchange.Fix.Tests.Codec.FieldTypeTestData;

namespace Exchange.Fix.Tests.Codec;

public class UtcTimestampInvalidCasesTest
{
    [Theory]
    [InlineData("")]
    [InlineData("20240315")]
    [InlineData("20240315 14:30:00")]
    [InlineData("20240315-14-30-00")]
    [InlineData("2024031-14:30:00")]
    [InlineData("20240315-14:30:00.")]
    [InlineData("20240315-14:30:00.12")]
    [InlineData("20240315-14:30:00.1234")]
    [InlineData("20240315-14:30:00,123")]
    [InlineData("2024031a-14:30:00")]
    [InlineData("20240315-14:30:00.12a")]
    [InlineData("20240315-14:30:00.1234567890")]
    public void Malformed_IsRejected(string text)
    {
        Assert.Equal(FieldStatus.Malformed, FixTimestamp.TryParse(Ascii(text), out _));
    }

    [Theory]
    [InlineData("20241315-14:30:00")]
    [InlineData("20240015-14:30:00")]
    [InlineData("20240230-14:30:00")]
    [InlineData("20230229-14:30:00")]
    [InlineData("21000229-00:00:00")]
    [InlineData("20240431-00:00:00")]
    [InlineData("20240300-00:00:00")]
    [InlineData("20240315-24:00:00")]
    [InlineData("20240315-23:60:00")]
    [InlineData("20240315-23:59:61")]
    [InlineData("19691231-23:59:59")]
    [InlineData("22620101-00:00:00")]
    public void OutOfRange_IsRejected(string text)
    {
        Assert.Equal(FieldStatus.OutOfRange, FixTimestamp.TryParse(Ascii(text), out _));
    }
}
