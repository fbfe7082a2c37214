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
    [InlineData("20240315-12:34:60.000")] // a leap second is always 23:59:60
    [InlineData("20240315-23:58:60")]
    [InlineData("20240315-22:59:60")]
    [InlineData("19691231-23:59:59")]
    [InlineData("22620101-00:00:00")]
    public void OutOfRange_IsRejected(string text)
    {
        Assert.Equal(FieldStatus.OutOfRange, FixTimestamp.TryParse(Ascii(text), out _));
    }

    /// <summary>
    /// 21 bytes shaped like a millisecond timestamp ('-' and '.' in place) with NULs for digits and LFs for colons: equal
    /// to an empty cache's bytes, which the fast path compares before checking any digit.
    /// </summary>
    private static readonly byte[] NulTimestamp =
        [0, 0, 0, 0, 0, 0, 0, 0, (byte)'-', 0, 0, 0x0A, 0, 0, 0x0A, 0, 0, (byte)'.', (byte)'0', (byte)'0', (byte)'0'];

    [Fact]
    public void A_timestamp_of_nul_bytes_is_malformed_whatever_was_parsed_before()
    {
        Assert.Equal(FieldStatus.Malformed, FixTimestamp.TryParse(NulTimestamp, out _));

        // Through a message too: a fresh connection and one that has parsed a valid timestamp give the same verdict.
        byte[] frame = FixTestMessages.Wrap("35=0|49=CLIENT1|56=VENUE|34=3|52=" + System.Text.Encoding.Latin1.GetString(NulTimestamp) + "|");
        var fresh = new FixMessage();
        Assert.False(fresh.Parse(frame, Exchange.Fix.Dictionary.FixDictionary.Fix44));
        var used = new FixMessage();
        Assert.True(used.Parse(FixTestMessages.Wrap("35=0|49=CLIENT1|56=VENUE|34=2|52=20240315-14:30:00.000|"), Exchange.Fix.Dictionary.FixDictionary.Fix44));
        Assert.False(used.Parse(frame, Exchange.Fix.Dictionary.FixDictionary.Fix44));
        Assert.Equal(FixFieldError.Of(FixTags.SendingTime, SessionRejectReason.IncorrectDataFormat), fresh.Validation);
        Assert.Equal(fresh.Validation, used.Validation);
    }
}
