using System.Globalization;
using Exchange.LoadClient.Histogram;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Host.Tests.Histogram;

/// <summary>
/// The load client's wrapper over HdrHistogram: what it adds (out-of-range values counted instead of thrown, the exact
/// minimum, nothing allocated per record) and that the figures the client prints read back as recorded.
/// </summary>
[Collection(ZeroAllocationCollection.Name)]
public class LatencyHistogramTests
{
    [Fact]
    public void UniformOneToMillion_PercentilesWithinThreeDigits()
    {
        var histogram = new LatencyHistogram(3_600_000_000, 3);
        for (long value = 1; value <= 1_000_000; value++)
        {
            Assert.True(histogram.RecordValue(value));
        }

        Assert.Equal(1_000_000, histogram.TotalCount);
        AssertWithin(500_000, histogram.ValueAtPercentile(50), 0.001);
        AssertWithin(990_000, histogram.ValueAtPercentile(99), 0.001);
        AssertWithin(999_000, histogram.ValueAtPercentile(99.9), 0.001);
        AssertWithin(1_000_000, histogram.Max, 0.001);
        AssertWithin(500_000, histogram.Mean, 0.001);
        Assert.Equal(1, histogram.Min);
    }

    [Fact]
    public void Min_IsExactNotTheBucketBound()
    {
        var histogram = new LatencyHistogram(100_000_000, 3);
        histogram.RecordValue(98_765);
        histogram.RecordValue(12_345_677);

        // At three digits 12,345,677 shares a bucket with its neighbours; the minimum the client prints is the value.
        Assert.Equal(98_765, histogram.Min);
        Assert.InRange(histogram.Max, 12_345_677, 12_345_677 * 1.001);
    }

    [Fact]
    public void OutOfRangeValues_AreCountedNotRecordedNorThrown()
    {
        var histogram = new LatencyHistogram(10_000, 3);
        Assert.False(histogram.RecordValue(-1));
        Assert.False(histogram.RecordValue(long.MaxValue));
        Assert.True(histogram.RecordValue(10_000));

        Assert.Equal(2, histogram.OutOfRangeCount);
        Assert.Equal(1, histogram.TotalCount);
        Assert.Equal(10_000, histogram.Min);
    }

    [Fact]
    public void Empty_ReadsAsZero()
    {
        var histogram = new LatencyHistogram(1000, 2);
        Assert.Equal(0, histogram.Min);
        Assert.Equal(0, histogram.Max);
        Assert.Equal(0, histogram.Mean);
        Assert.Equal(0, histogram.ValueAtPercentile(99));
    }

    [Fact]
    public void RecordValue_AllocatesNothing()
    {
        var histogram = new LatencyHistogram(3_600_000_000, 3);
        histogram.RecordValue(1);
        histogram.RecordValue(-1);
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (long value = 1; value < 100_000; value++)
        {
            histogram.RecordValue(value * 31);
        }

        histogram.RecordValue(long.MaxValue);
        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Fact]
    public void PercentileDistribution_IsHdrTextScaledToTheOutputUnit()
    {
        var histogram = new LatencyHistogram(3_600_000_000, 3);
        for (int i = 0; i < 10_000; i++)
        {
            histogram.RecordValue(1000 + (i * 10));
        }

        using var text = new StringWriter(CultureInfo.InvariantCulture);
        histogram.WritePercentileDistribution(text, 1000.0);
        string[] lines = text.ToString().Split('\n', StringSplitOptions.TrimEntries);

        Assert.Matches(@"^Value +Percentile +TotalCount +1/\(1-Percentile\)$", lines[0]);
        string[] first = lines[2].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(1.0, double.Parse(first[0], CultureInfo.InvariantCulture), 0.001);
        Assert.Equal(0.0, double.Parse(first[1], CultureInfo.InvariantCulture));
        string? lastRow = lines.LastOrDefault(line => line.Length > 0 && line[0] != '#');
        Assert.NotNull(lastRow);
        string[] last = lastRow.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(101.0, double.Parse(last[0], CultureInfo.InvariantCulture), 0.2);
        Assert.Equal(1.0, double.Parse(last[1], CultureInfo.InvariantCulture));
        Assert.Equal("10000", last[2]);
        Assert.Contains(lines, line => line.StartsWith("#[Mean", StringComparison.Ordinal));
        Assert.Contains(lines, line => line.StartsWith("#[Max", StringComparison.Ordinal) && line.Contains("10000", StringComparison.Ordinal));
    }

    private static void AssertWithin(double expected, double actual, double relative) =>
        Assert.True(Math.Abs(actual - expected) <= expected * relative, $"expected {expected} within {relative:P2}, got {actual}");
}
