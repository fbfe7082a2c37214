using System.Text;
using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// The shortcuts behind the cached typed values: a decimal kept as digits + scale and rescaled later
/// (<see cref="FixPrice.Rescale"/>) must equal <see cref="FixPrice.TryParse"/>; a timestamp parsed through a
/// last-second cache must equal a cold parse; the one-pass copy + SOH bitmap must equal a copy then
/// <see cref="SohBitmap.Build"/>.
/// </summary>
public sealed class CachedTypedValueTests
{
    [Fact]
    public void Rescale_MatchesTryParse_ForRandomDecimalsAtEveryScale()
    {
        var random = new Random(11);
        for (int round = 0; round < 20_000; round++)
        {
            string text = RandomDecimal(random);
            byte[] value = Encoding.ASCII.GetBytes(text);
            FixPrice.DigitsResult digits = FixPrice.TryParseDigits(value, out long mantissa, out int scale);
            Assert.Equal(FixPrice.IsWellFormed(value), digits != FixPrice.DigitsResult.Malformed);
            if (digits != FixPrice.DigitsResult.Ok)
            {
                continue;
            }

            for (int decimals = 0; decimals <= FixPrice.MaxDecimals; decimals++)
            {
                (FieldStatus, long) want = (FixPrice.TryParse(value, decimals, out long a), a);
                (FieldStatus, long) got = (FixPrice.Rescale(mantissa, scale, decimals, out long b), b);
                Assert.True(want == got, $"'{text}' at {decimals}: TryParse {want}, Rescale {got}");
            }
        }
    }

    [Theory]
    [InlineData("143.42")]
    [InlineData("-0.5")]
    [InlineData(".5")]
    [InlineData("5.")]
    [InlineData("999999999999999999")]
    [InlineData("9223372036854775807")]
    [InlineData("0.000000000000000001")]
    public void TryParseDigits_EdgeCases_AgreeWithTryParse(string text)
    {
        byte[] value = Encoding.ASCII.GetBytes(text);
        if (FixPrice.TryParseDigits(value, out long mantissa, out int scale) != FixPrice.DigitsResult.Ok)
        {
            Assert.True(text.Count(char.IsAsciiDigit) > 18);
            return;
        }

        for (int decimals = 0; decimals <= FixPrice.MaxDecimals; decimals++)
        {
            Assert.Equal((FixPrice.TryParse(value, decimals, out long a), a), (FixPrice.Rescale(mantissa, scale, decimals, out long b), b));
        }
    }

    /// <summary>Scaling up at the edge of a long: the largest magnitude that scales fits exactly, one more is out of range.</summary>
    [Fact]
    public void Rescale_AtTheLargestScalableMagnitude_FitsAndOneMoreIsOutOfRange()
    {
        for (int shift = 1; shift <= FixPrice.MaxDecimals; shift++)
        {
            long factor = FixPrice.Pow10(shift);
            long largest = long.MaxValue / factor;
            Assert.Equal((FieldStatus.Ok, largest * factor), (FixPrice.Rescale(largest, 0, shift, out long up), up));
            Assert.Equal((FieldStatus.Ok, -largest * factor), (FixPrice.Rescale(-largest, 0, shift, out long down), down));
            Assert.Equal(FieldStatus.OutOfRange, FixPrice.Rescale(largest + 1, 0, shift, out _));
            Assert.Equal(FieldStatus.OutOfRange, FixPrice.Rescale(-(largest + 1), 0, shift, out _));
        }
    }

    [Fact]
    public void CachedTimestampParse_MatchesColdParse_ForSequencesOfSecondsAndBadValues()
    {
        var random = new Random(5);
        TimestampCache cache = default;
        string[] bad = ["20240315-14:30:00.12x", "20240315-14:30:00,123", "20240315x14:30:00.123", "20240315-14:30:00.1234", "20240315-14:30:60.999"];
        for (int round = 0; round < 20_000; round++)
        {
            // Mostly the same few seconds (cache hits), sometimes a new one or a broken variant of a cached one.
            var time = new DateTime(2024, 3, 15, 14, 30, random.Next(0, 3), DateTimeKind.Utc).AddMilliseconds(random.Next(1000));
            string text = random.Next(20) switch
            {
                0 => bad[random.Next(bad.Length)],
                1 => time.ToString("yyyyMMdd-HH:mm:ss", System.Globalization.CultureInfo.InvariantCulture),
                2 => time.AddDays(random.Next(1, 5000)).ToString("yyyyMMdd-HH:mm:ss.ffffff", System.Globalization.CultureInfo.InvariantCulture),
                _ => time.ToString("yyyyMMdd-HH:mm:ss.fff", System.Globalization.CultureInfo.InvariantCulture),
            };
            byte[] value = Encoding.ASCII.GetBytes(text);
            Assert.Equal((FixTimestamp.TryParse(value, out long a), a), (FixTimestamp.TryParse(value, ref cache, out long b), b));
        }
    }

    [Fact]
    public void CopyAndBuild_MatchesCopyThenBuild_ForEveryLength()
    {
        var random = new Random(3);
        byte[] source = new byte[400];
        for (int length = 0; length <= 320; length++)
        {
            for (int i = 0; i < source.Length; i++)
            {
                source[i] = random.Next(6) == 0 ? (byte)1 : (byte)'a';
            }

            byte[] expectedCopy = new byte[(SohBitmap.WordsFor(320) * 64) + SohBitmap.Padding];
            byte[] actualCopy = new byte[expectedCopy.Length];
            Array.Fill(expectedCopy, (byte)1);
            Array.Fill(actualCopy, (byte)1);
            ulong[] expected = new ulong[SohBitmap.WordsFor(320)];
            ulong[] actual = new ulong[expected.Length];
            source.AsSpan(0, length).CopyTo(expectedCopy);
            SohBitmap.Build(expectedCopy, length, expected);
            SohBitmap.CopyAndBuild(source.AsSpan(0, length), actualCopy, actual);

            Assert.True(expectedCopy.AsSpan(0, length).SequenceEqual(actualCopy.AsSpan(0, length)), $"copy differs at length {length}");
            Assert.True(expected.AsSpan(0, SohBitmap.WordsFor(length)).SequenceEqual(actual.AsSpan(0, SohBitmap.WordsFor(length))), $"bitmap differs at length {length}");
        }
    }

    private static string RandomDecimal(Random random)
    {
        var text = new StringBuilder();
        if (random.Next(4) == 0)
        {
            text.Append('-');
        }

        int whole = random.Next(0, 12);
        for (int i = 0; i < whole; i++)
        {
            text.Append((char)('0' + random.Next(10)));
        }

        if (random.Next(3) != 0)
        {
            text.Append('.');
            int fraction = random.Next(0, 12);
            for (int i = 0; i < fraction; i++)
            {
                // Trailing zeros often, so off-scale and exact cases both occur.
                text.Append(random.Next(3) == 0 ? '0' : (char)('0' + random.Next(10)));
            }
        }

        if (random.Next(50) == 0)
        {
            text.Append('x');
        }

        return text.ToString();
    }
}
