using Exchange.Core.MarketData;

namespace Exchange.Core.Tests.MarketData;

/// <summary>
/// Depths whose every field is a function of the version, so one depth carries its own consistency check: a copy that
/// mixes two publishes disagrees with the version somewhere.
/// </summary>
internal static class DepthPattern
{
    /// <summary>Instrument a version belongs to: versions are dealt round-robin over the instruments.</summary>
    public static int InstrumentOf(long version, int instrumentCount) => (int)(version % instrumentCount);

    public static void Fill(ref BookDepth depth, long version, int instrumentCount)
    {
        depth.InstrumentId = InstrumentOf(version, instrumentCount);
        depth.Version = version;
        depth.CommandSequence = (version * 7) + 3;
        depth.BidCount = (int)(version % (BookDepth.MaxLevels + 1));
        depth.AskCount = (int)((version / 3) % (BookDepth.MaxLevels + 1));
        for (var k = 0; k < BookDepth.MaxLevels; k++)
        {
            // Levels past the counts are filled too, so tearing there is caught as well.
            depth.Bids[k] = new DepthLevel { Price = 1_000_000 + (version * 2) - k, Quantity = (version * 10) + k, OrderCount = (int)((version + k) % 1000) + 1 };
            depth.Asks[k] = new DepthLevel { Price = 2_000_000 + (version * 2) + k, Quantity = (version * 13) + k, OrderCount = (int)(((version * 3) + k) % 1000) + 1 };
        }
    }

    /// <summary>Describes the first field that disagrees with the depth's version, or null when all agree.</summary>
    public static string? FindInconsistency(in BookDepth actual, int instrumentCount)
    {
        var expected = default(BookDepth);
        Fill(ref expected, actual.Version, instrumentCount);
        return Compare(actual, expected);
    }

    /// <summary>Describes the first field where <paramref name="actual"/> differs from <paramref name="expected"/>.</summary>
    public static string? Compare(in BookDepth actual, in BookDepth expected)
    {
        if (actual.Version != expected.Version) return Describe(actual.Version, "Version", actual.Version, expected.Version);
        if (actual.InstrumentId != expected.InstrumentId) return Describe(actual.Version, "InstrumentId", actual.InstrumentId, expected.InstrumentId);
        if (actual.CommandSequence != expected.CommandSequence) return Describe(actual.Version, "CommandSequence", actual.CommandSequence, expected.CommandSequence);
        if (actual.BidCount != expected.BidCount) return Describe(actual.Version, "BidCount", actual.BidCount, expected.BidCount);
        if (actual.AskCount != expected.AskCount) return Describe(actual.Version, "AskCount", actual.AskCount, expected.AskCount);
        for (var k = 0; k < BookDepth.MaxLevels; k++)
        {
            if (!Same(actual.Bids[k], expected.Bids[k])) return Describe(actual.Version, $"Bids[{k}]", Show(actual.Bids[k]), Show(expected.Bids[k]));
            if (!Same(actual.Asks[k], expected.Asks[k])) return Describe(actual.Version, $"Asks[{k}]", Show(actual.Asks[k]), Show(expected.Asks[k]));
        }

        return null;
    }

    private static string Describe<T>(long version, string field, T got, T want) =>
        $"version {version}: {field} is {got}, expected {want}";

    private static bool Same(DepthLevel a, DepthLevel b) =>
        a.Price == b.Price && a.Quantity == b.Quantity && a.OrderCount == b.OrderCount;

    private static string Show(DepthLevel l) => $"({l.Price}, {l.Quantity}, {l.OrderCount})";
}
