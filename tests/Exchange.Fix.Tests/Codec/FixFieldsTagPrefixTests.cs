using System.Text;
using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>Tags reach the field writers as packed "tag=" prefixes: exact bytes and length for every width, the
/// table agrees with the computed form, and tags the packing cannot hold are refused, never truncated.</summary>
public class FixFieldsTagPrefixTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(9)]
    [InlineData(10)]
    [InlineData(99)]
    [InlineData(100)]
    [InlineData(9_999)]
    [InlineData(10_000)]
    [InlineData(123_456)]
    [InlineData(FixFields.MaxTag - 1)]
    public void Prefix_PacksTheTagTextAndItsLength(int tag)
    {
        var buffer = new byte[16];
        int end = FixFields.Tag(ref buffer[0], 0, FixFields.PrefixOf(tag));
        Assert.Equal($"{tag}=", Encoding.ASCII.GetString(buffer, 0, end));
    }

    [Fact]
    public void Table_AgreesWithTheComputedPrefix_ForEveryTableTag()
    {
        for (int tag = 0; tag < 10_000; tag++)
        {
            Assert.Equal(FixFields.Prefix(tag), FixFields.PrefixOf(tag));
        }
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(FixFields.MaxTag)]
    [InlineData(int.MaxValue)]
    public void TagsOutsideTheRange_AreRefused(int tag) =>
        Assert.Throws<ArgumentOutOfRangeException>(() => FixFields.PrefixOf(tag));

    [Fact]
    public void Writer_WritesSixDigitTags_AndRefusesLonger()
    {
        var buffer = new byte[FixMessageWriter.TypicalMaxLength];
        var w = new FixMessageWriter(buffer);
        w.AddInt(123_456, -42);
        Assert.Equal("123456=-42\u0001", Encoding.ASCII.GetString(buffer, 0, w.Length));
        Assert.Throws<ArgumentOutOfRangeException>(() =>
        {
            var writer = new FixMessageWriter(buffer);
            writer.AddInt(FixFields.MaxTag, 1);
        });
    }
}
