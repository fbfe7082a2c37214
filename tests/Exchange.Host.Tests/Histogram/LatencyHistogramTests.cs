using System.Globalization;
using System.Text.RegularExpressions;
using Exchange.LoadClient.Histogram;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Host.Tests.Histogram;

[Collection(ZeroAllocationCollection.Name)]
public partial class LatencyHistogramTests
{
    [Fact]
    public void UniformOneToMillion_PercentilesWithinConfiguredPrecision()
    {
        var histogram = new LatencyHistogram(3_600_000_000, 3);
        for (long value = 1; value <= 1_000_000; value++)
        {
            Assert.True(histogram.RecordValue(value));
        }

        Assert.Equal(1_000_000, histogram.TotalCount);
        AssertWithin(500_000, histogram.ValueAtPercentile(50), 0.001);
        AssertWithin(900_000, histogram.ValueAtPercentile(90), 0.001);
        AssertWithin(990_000, histogram.ValueAtPercentile(99), 0.001);
        AssertWithin(999_000, histogram.ValueAtPercentile(99.9), 0.001);
        AssertWithin(1_000_000, histogram.Max, 0.001);
        AssertWithin(500_000, histogram.Mean, 0.001);
        AssertWithin(288_675, histogram.StdDeviation, 0.001);
        Assert.Equal(1, histogram.Min);
        Assert.Equal(histogram.Max, histogram.ValueAtPercentile(100));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void EveryValue_IsHeldToTheSignificantDigits(int digits)
    {
        var histogram = new LatencyHistogram(1L << 40, digits);
        var random = new Random(7);
        double resolution = Math.Pow(10, -digits);
        for (int i = 0; i < 20_000; i++)
        {
            long value = (long)Math.Pow(2, random.NextDouble() * 40);
            long lowest = histogram.LowestEquivalentValue(value);
            long highest = histogram.HighestEquivalentValue(value);
            Assert.InRange(value, lowest, highest);
            Assert.True(highest - lowest <= Math.Max(0, value * resolution), $"value {value}: range {lowest}..{highest}");
        }
    }

    [Fact]
    public void SingleValue_ReadsBackAtEveryPercentile()
    {
        var histogram = new LatencyHistogram(100_000_000, 3);
        histogram.RecordValue(12_345);

        Assert.Equal(histogram.HighestEquivalentValue(12_345), histogram.ValueAtPercentile(50));
        Assert.Equal(histogram.LowestEquivalentValue(12_345), histogram.Min);
        Assert.InRange(histogram.ValueAtPercentile(99.99), 12_345, 12_345 + 16);
    }

    [Fact]
    public void ExpectedInterval_BackFillsTheOmittedSamples()
    {
        var histogram = new LatencyHistogram(1_000_000, 3);

        // A 1000-unit stall with samples due every 100 units: 1000, 900, ..., 100 (ten samples).
        histogram.RecordValueWithExpectedInterval(1000, 100);
        Assert.Equal(10, histogram.TotalCount);
        Assert.Equal(100, histogram.Min);
        Assert.Equal(1000, histogram.Max);
        Assert.Equal(550, histogram.Mean);

        // At or below the interval nothing is missing.
        histogram.RecordValueWithExpectedInterval(100, 100);
        histogram.RecordValueWithExpectedInterval(50, 100);
        Assert.Equal(12, histogram.TotalCount);

        // Without correction only the one sample is recorded.
        var raw = new LatencyHistogram(1_000_000, 3);
        raw.RecordValue(1000);
        Assert.Equal(1, raw.TotalCount);
    }

    [Fact]
    public void OutOfRangeValues_AreCountedNotRecorded()
    {
        var histogram = new LatencyHistogram(10_000, 3);
        Assert.False(histogram.RecordValue(-1));
        Assert.False(histogram.RecordValue(long.MaxValue));
        Assert.True(histogram.RecordValue(10_000));

        Assert.Equal(2, histogram.OutOfRangeCount);
        Assert.Equal(1, histogram.TotalCount);
    }

    [Fact]
    public void Add_CombinesCountsAsIfRecordedInOne()
    {
        var all = new LatencyHistogram(10_000_000, 3);
        var even = new LatencyHistogram(10_000_000, 3);
        var odd = new LatencyHistogram(10_000_000, 3);
        var random = new Random(99);
        for (int i = 0; i < 50_000; i++)
        {
            long value = random.Next(1, 5_000_000);
            all.RecordValue(value);
            (i % 2 == 0 ? even : odd).RecordValue(value);
        }

        even.Add(odd);

        Assert.Equal(all.TotalCount, even.TotalCount);
        Assert.Equal(all.Min, even.Min);
        Assert.Equal(all.Max, even.Max);
        foreach (double percentile in new[] { 1.0, 25, 50, 90, 99, 99.9 })
        {
            Assert.Equal(all.ValueAtPercentile(percentile), even.ValueAtPercentile(percentile));
        }
    }

    [Fact]
    public void RecordValue_AllocatesNothing()
    {
        var histogram = new LatencyHistogram(3_600_000_000, 3);
        histogram.RecordValue(1);
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (long value = 1; value < 100_000; value++)
        {
            histogram.RecordValue(value * 31);
            histogram.RecordValueWithExpectedInterval(value, 20_000);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Fact]
    public void PercentileDistribution_HasTheHdrTextFormat()
    {
        var histogram = new LatencyHistogram(3_600_000_000, 3);
        var random = new Random(42);
        for (int i = 0; i < 10_000; i++)
        {
            histogram.RecordValue(1000 + random.Next(0, 100_000));
        }

        using var text = new StringWriter(CultureInfo.InvariantCulture);
        histogram.WritePercentileDistribution(text, 1000.0);
        string[] lines = text.ToString().Split('\n');

        Assert.Matches(@"^ +Value +Percentile +TotalCount +1/\(1-Percentile\)$", lines[0]);
        Assert.Equal(string.Empty, lines[1]);

        int row = 2;
        double lastPercentile = -1;
        long lastCount = 0;
        double lastValue = 0;
        for (; lines[row].Length > 0 && lines[row][0] != '#'; row++)
        {
            Match full = FullRow().Match(lines[row]);
            Match last = LastRow().Match(lines[row]);
            Assert.True(full.Success || last.Success, $"unparsable row: '{lines[row]}'");
            Match match = full.Success ? full : last;
            double value = double.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
            double percentile = double.Parse(match.Groups[2].Value, CultureInfo.InvariantCulture);
            long count = long.Parse(match.Groups[3].Value, CultureInfo.InvariantCulture);
            Assert.True(percentile >= lastPercentile && count >= lastCount && value >= lastValue, lines[row]);
            if (full.Success)
            {
                double inverse = double.Parse(match.Groups[4].Value, CultureInfo.InvariantCulture);
                Assert.Equal(1 / (1 - percentile), inverse, 0.01);
            }
            else
            {
                Assert.Equal(1.0, percentile);
                Assert.Equal(histogram.TotalCount, count);
                Assert.Equal(histogram.Max / 1000.0, value, 0.001);
            }

            (lastPercentile, lastCount, lastValue) = (percentile, count, value);
        }

        Assert.Equal(1.0, lastPercentile);
        Assert.True(row > 20, "expected a dense percentile table");
        Assert.Equal(0.0, double.Parse(FullRow().Match(lines[2]).Groups[2].Value, CultureInfo.InvariantCulture));
        Assert.Matches(@"^#\[Mean    = +\d+\.\d{3}, StdDeviation   = +\d+\.\d{3}\]$", lines[row]);
        Assert.Matches(@"^#\[Max     = +\d+\.\d{3}, Total count    = +10000\]$", lines[row + 1]);
        Assert.Matches($@"^#\[Buckets = +{histogram.BucketCount}, SubBuckets     = +2048\]$", lines[row + 2]);
    }

    [Fact]
    public void PercentileDistribution_OfEmptyHistogram_HasHeaderAndFooterOnly()
    {
        var histogram = new LatencyHistogram(1000, 2);
        using var text = new StringWriter(CultureInfo.InvariantCulture);
        histogram.WritePercentileDistribution(text, 1);
        string[] lines = text.ToString().Split('\n');

        Assert.StartsWith("#[Mean", lines[2], StringComparison.Ordinal);
        Assert.Contains("Total count    =            0", lines[3], StringComparison.Ordinal);
    }

    private static void AssertWithin(double expected, double actual, double relative) =>
        Assert.True(Math.Abs(actual - expected) <= expected * relative, $"expected {expected} within {relative:P2}, got {actual}");

    [GeneratedRegex(@"^ *(\d+\.\d+) (\d\.\d{12}) +(\d+) +(\d+\.\d{2})$")]
    private static partial Regex FullRow();

    [GeneratedRegex(@"^ *(\d+\.\d+) (\d\.\d{12}) +(\d+)$")]
    private static partial Regex LastRow();
}
