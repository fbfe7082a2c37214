using Exchange.Core.MarketData;
using Xunit;

namespace Exchange.Core.Tests.MarketData;

/// <summary>The stress test's checker must itself catch torn copies, or a passing stress test would prove nothing.</summary>
public sealed class DepthPatternTests
{
    [Fact]
    public void A_whole_depth_is_consistent()
    {
        var depth = default(BookDepth);
        DepthPattern.Fill(ref depth, 12_345, 3);
        Assert.Null(DepthPattern.FindInconsistency(depth, 3));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(5)]
    [InlineData(9)]
    public void A_copy_mixing_two_publishes_is_caught(int tornLevel)
    {
        var older = default(BookDepth);
        var newer = default(BookDepth);
        DepthPattern.Fill(ref older, 300, 3);
        DepthPattern.Fill(ref newer, 303, 3);

        // What a reader racing the writer could copy: the new header and levels up to tornLevel, old data after.
        var torn = newer;
        torn.Asks[tornLevel] = older.Asks[tornLevel];

        Assert.Contains($"Asks[{tornLevel}]", DepthPattern.FindInconsistency(torn, 3), StringComparison.Ordinal);
    }

    [Fact]
    public void A_header_from_another_publish_is_caught()
    {
        var depth = default(BookDepth);
        DepthPattern.Fill(ref depth, 301, 3);
        depth.Version = 304; // same instrument, newer version, old body
        Assert.NotNull(DepthPattern.FindInconsistency(depth, 3));
    }
}
