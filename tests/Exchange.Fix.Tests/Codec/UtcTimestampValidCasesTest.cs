using Exchange.Fix.Codec;
using Xunit;
using static Exchange.Fix.Tests.Codec.FieldTypeTestData;

namespace Exchange.Fix.Tests.Codec;

public class UtcTimestampValidCasesTest
{
    public static TheoryData<string, long> Cases() => new()
    {
        { "19700101-00:00:00", 0L },
        { "20240315-14:30:00", Nanos(2024, 3, 15, 14, 30, 0) },
        { "20240315-14:30:00.123", Nanos(2024, 3, 15, 14, 30, 0, 123_000_000) },
        { "20240315-14:30:00.123456", Nanos(2024, 3, 15, 14, 30, 0, 123_456_000) },
        { "20240315-14:30:00.123456789", Nanos(2024, 3, 15, 14, 30, 0, 123_456_789) },
        { "20240229-23:59:59.999", Nanos(2024, 2, 29, 23, 59, 59, 999_000_000) },
        { "20000229-00:00:00", Nanos(2000, 2, 29, 0, 0, 0) },
        { "21001231-12:00:00", Nanos(2100, 12, 31, 12, 0, 0) },
        { "20161231-23:59:60", Nanos(2016, 12, 31, 23, 59, 59) + FixTimestamp.NanosPerSecond },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Parses_ToUnixNanoseconds(string text, long expected)
    {
        Assert.Equal(FieldStatus.Ok, FixTimestamp.TryParse(Ascii(text), out long nanos));
        Assert.Equal(expected, nanos);
    }

    [Theory]
    [InlineData(0L, "19700101-00:00:00.000")]
    [InlineData(1_710_513_000_123_999_999L, "20240315-14:30:00.123")]
    [InlineData(951_782_400_000_000_000L, "20000229-00:00:00.000")]
    public void FormatsMilliseconds_Truncating(long nanos, string expected)
    {
        var buffer = new byte[FixTimestamp.MillisecondsLength];
        Assert.Equal(FixTimestamp.MillisecondsLength, FixTimestamp.FormatMilliseconds(nanos, buffer));
        Assert.Equal(expected, FixTestMessages.Show(buffer));
    }

    [Fact]
    public void FormatThenParse_RoundTripsMillisecondsOverManyDays()
    {
        var buffer = new byte[FixTimestamp.MillisecondsLength];
        var random = new Random(1234);
        for (int i = 0; i < 2000; i++)
        {
            long millis = random.NextInt64(0, 4_102_444_800_000L);
            FixTimestamp.FormatMilliseconds(millis * 1_000_000, buffer);
            Assert.Equal(FieldStatus.Ok, FixTimestamp.TryParse(buffer, out long back));
            Assert.Equal(millis * 1_000_000, back);
            Assert.Equal(DateTime.UnixEpoch.AddMilliseconds(millis).ToString("yyyyMMdd-HH:mm:ss.fff", System.Globalization.CultureInfo.InvariantCulture), FixTestMessages.Show(buffer));
        }
    }
}
