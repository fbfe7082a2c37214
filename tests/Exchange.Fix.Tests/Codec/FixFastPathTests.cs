using System.Globalization;
using System.Text;
using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// The vectorised / table-driven helpers against plain reference computations at every length and digit boundary,
/// so a wrong mask or table entry cannot hide behind the few lengths the message tests happen to use.
/// </summary>
public sealed class FixFastPathTests
{
    [Fact]
    public void Checksum_MatchesByteSum_AtEveryLengthAndOffset()
    {
        var random = new Random(42);
        byte[] data = new byte[300];
        random.NextBytes(data);
        for (int offset = 0; offset < 3; offset++)
        {
            for (int length = 0; length <= data.Length - offset; length++)
            {
                int expected = 0;
                for (int i = offset; i < offset + length; i++)
                {
                    expected += data[i];
                }

                Assert.Equal(expected % 256, FixChecksum.Compute(data.AsSpan(offset, length)));
            }
        }
    }

    [Fact]
    public void CopyAndSum_CopiesExactlyAndSumsLikeCompute_AtEveryLength()
    {
        var random = new Random(43);
        byte[] source = new byte[300];
        random.NextBytes(source);
        for (int length = 0; length <= 200; length++)
        {
            byte[] destination = new byte[length + 40];
            Array.Fill(destination, (byte)0xEE);
            ulong sum = FixChecksum.CopyAndSum(source.AsSpan(1, length), ref destination[3]);
            Assert.Equal(FixChecksum.Compute(source.AsSpan(1, length)), (int)(sum & 0xFF));
            Assert.True(destination.AsSpan(3, length).SequenceEqual(source.AsSpan(1, length)));
            Assert.All(destination[..3], b => Assert.Equal(0xEE, b));
            Assert.All(destination[(3 + length)..], b => Assert.Equal(0xEE, b)); // nothing stored past the copy
        }
    }

    [Fact]
    public void ByteSum_AddsTheFourBytes()
    {
        var random = new Random(44);
        foreach (uint value in new uint[] { 0, uint.MaxValue, 0x3031_3233 }.Concat(Enumerable.Range(0, 1000).Select(_ => (uint)random.NextInt64(0, 1L << 32))))
        {
            ulong expected = (ulong)BitConverter.GetBytes(value).Sum(b => b);
            Assert.Equal(expected, FixDigits.ByteSum(value));
        }
    }

    public static TheoryData<ulong> DigitBoundaries()
    {
        var values = new SortedSet<ulong> { 0, ulong.MaxValue, uint.MaxValue, (ulong)uint.MaxValue + 1 };
        ulong power = 1;
        for (int i = 0; i < 20; i++)
        {
            values.Add(power);
            values.Add(power - 1);
            values.Add(power + 1);
            if (i < 19)
            {
                power *= 10;
            }
        }

        var data = new TheoryData<ulong>();
        foreach (ulong value in values)
        {
            data.Add(value);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(DigitBoundaries))]
    public void CountDigitsAndFormat_MatchToString(ulong value)
    {
        string expected = value.ToString(CultureInfo.InvariantCulture);
        Assert.Equal(expected.Length, FixInt.CountDigits(value));
        byte[] buffer = new byte[FixInt.MaxLongChars];
        int written = FixInt.FormatUnsigned(value, buffer);
        Assert.Equal(expected, Encoding.ASCII.GetString(buffer, 0, written));
    }

    [Theory]
    [InlineData(long.MinValue)]
    [InlineData(-1L)]
    [InlineData(long.MaxValue)]
    [InlineData(-4_294_967_296L)]
    public void SignedFormat_MatchesToString(long value)
    {
        byte[] buffer = new byte[FixInt.MaxLongChars];
        int written = FixInt.Format(value, buffer);
        Assert.Equal(value.ToString(CultureInfo.InvariantCulture), Encoding.ASCII.GetString(buffer, 0, written));
    }

    [Fact]
    public void WriteDigits_PadsWithLeadingZeros()
    {
        byte[] buffer = new byte[7];
        FixInt.WriteDigits(4321, buffer);
        Assert.Equal("0004321", Encoding.ASCII.GetString(buffer));
    }
}
