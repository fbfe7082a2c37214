using System.Globalization;
using System.Numerics;

namespace Exchange.LoadClient.Histogram;

/// <summary>
/// A log-linear bucketed histogram of non-negative integer values (latencies in Stopwatch ticks or nanoseconds) after
/// HdrHistogram's published design: values are kept to a fixed number of significant decimal digits across the whole
/// range, recording is O(1) and allocation-free, and percentiles are read back from the counts.
/// </summary>
/// <remarks>
/// <para>Layout: bucket 0 holds values 0 .. 2*SubBucketHalfCount-1 at unit resolution; each further bucket covers twice
/// the range of the previous one with the same number of sub-buckets (only the upper half of each is new), so the
/// width of a sub-bucket relative to its value stays below 10^-digits. The counts array index of a value follows from
/// the position of its highest set bit (a leading-zero count) and a shift.</para>
/// <para>Not thread-safe: record from one thread, or record into one histogram per thread and <see cref="Add"/> them.</para>
/// </remarks>
public sealed class LatencyHistogram
{
    private readonly int _subBucketHalfCountMagnitude;
    private readonly int _subBucketHalfCount;
    private readonly long _subBucketMask;
    private readonly int _leadingZeroCountBase;
    private readonly long[] _counts;
    private long _totalCount;
    private long _minValue = long.MaxValue;
    private long _maxValue;

    /// <param name="highestTrackableValue">The largest value that can be recorded (at least 2).</param>
    /// <param name="significantDigits">Decimal digits of precision kept for every value, 1 to 5.</param>
    public LatencyHistogram(long highestTrackableValue, int significantDigits = 3)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(highestTrackableValue, 2);
        ArgumentOutOfRangeException.ThrowIfLessThan(significantDigits, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(significantDigits, 5);

        HighestTrackableValue = highestTrackableValue;
        SignificantDigits = significantDigits;

        // Unit resolution must reach 2 * 10^digits so that one unit is within the precision at the top of bucket 0.
        long largestValueWithSingleUnitResolution = 2 * (long)Math.Pow(10, significantDigits);
        int subBucketCountMagnitude = (int)Math.Ceiling(Math.Log2(largestValueWithSingleUnitResolution));
        _subBucketHalfCountMagnitude = Math.Max(subBucketCountMagnitude, 1) - 1;
        SubBucketCount = 1 << (_subBucketHalfCountMagnitude + 1);
        _subBucketHalfCount = SubBucketCount / 2;
        _subBucketMask = SubBucketCount - 1;
        _leadingZeroCountBase = 64 - _subBucketHalfCountMagnitude - 1;

        BucketCount = BucketsNeededFor(highestTrackableValue, SubBucketCount);
        _counts = new long[(BucketCount + 1) * _subBucketHalfCount];
    }

    public long HighestTrackableValue { get; }

    public int SignificantDigits { get; }

    public int BucketCount { get; }

    public int SubBucketCount { get; }

    public long TotalCount => _totalCount;

    /// <summary>Values rejected because they were negative or above <see cref="HighestTrackableValue"/>'s range.</summary>
    public long OutOfRangeCount { get; private set; }

    /// <summary>The lowest recorded value (to the histogram's precision); 0 when empty.</summary>
    public long Min => _totalCount == 0 ? 0 : LowestEquivalentValue(_minValue);

    /// <summary>The highest recorded value (the top of its precision range); 0 when empty.</summary>
    public long Max => _totalCount == 0 ? 0 : HighestEquivalentValue(_maxValue);

    /// <summary>The mean of the recorded values (each taken at the middle of its precision range).</summary>
    public double Mean
    {
        get
        {
            if (_totalCount == 0)
            {
                return 0;
            }

            double total = 0;
            for (int index = 0; index < _counts.Length; index++)
            {
                if (_counts[index] != 0)
                {
                    total += (double)MedianEquivalentValue(ValueFromIndex(index)) * _counts[index];
                }
            }

            return total / _totalCount;
        }
    }

    public double StdDeviation
    {
        get
        {
            if (_totalCount == 0)
            {
                return 0;
            }

            double mean = Mean;
            double total = 0;
            for (int index = 0; index < _counts.Length; index++)
            {
                if (_counts[index] != 0)
                {
                    double deviation = MedianEquivalentValue(ValueFromIndex(index)) - mean;
                    total += deviation * deviation * _counts[index];
                }
            }

            return Math.Sqrt(total / _totalCount);
        }
    }

    /// <summary>Records one value; false (and counted in <see cref="OutOfRangeCount"/>) when out of range.</summary>
    public bool RecordValue(long value) => RecordValueWithCount(value, 1);

    /// <summary>
    /// Records <paramref name="value"/> and corrects for coordinated omission: when a sample took longer than the
    /// interval at which samples were due, the samples that would have been taken meanwhile (and waited) are
    /// back-filled as value - k*interval for every k while that stays at least <paramref name="expectedInterval"/>.
    /// </summary>
    public bool RecordValueWithExpectedInterval(long value, long expectedInterval)
    {
        if (!RecordValue(value))
        {
            return false;
        }

        if (expectedInterval <= 0)
        {
            return true;
        }

        for (long missing = value - expectedInterval; missing >= expectedInterval; missing -= expectedInterval)
        {
            RecordValue(missing);
        }

        return true;
    }

    /// <summary>Adds every count of <paramref name="other"/> to this histogram.</summary>
    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        for (int index = 0; index < other._counts.Length; index++)
        {
            long count = other._counts[index];
            if (count != 0)
            {
                RecordValueWithCount(other.ValueFromIndex(index), count);
            }
        }

        if (other._totalCount != 0 && other._counts.Length == _counts.Length && other.SubBucketCount == SubBucketCount)
        {
            // Same layout: keep the exact extremes rather than the bucket values re-recorded above.
            _minValue = Math.Min(_minValue, other._minValue);
            _maxValue = Math.Max(_maxValue, other._maxValue);
        }

        OutOfRangeCount += other.OutOfRangeCount;
    }

    public void Reset()
    {
        Array.Clear(_counts);
        _totalCount = 0;
        _minValue = long.MaxValue;
        _maxValue = 0;
        OutOfRangeCount = 0;
    }

    /// <summary>
    /// The value at or below which <paramref name="percentile"/> percent of recorded values fall (the top of that
    /// value's precision range, as HdrHistogram reports it); 0 when empty.
    /// </summary>
    public long ValueAtPercentile(double percentile)
    {
        if (_totalCount == 0)
        {
            return 0;
        }

        double requested = Math.Clamp(percentile, 0, 100);
        long countAtPercentile = Math.Max(1, (long)((requested / 100 * _totalCount) + 0.5));
        long running = 0;
        for (int index = 0; index < _counts.Length; index++)
        {
            running += _counts[index];
            if (running >= countAtPercentile)
            {
                long value = ValueFromIndex(index);
                return requested == 0 ? LowestEquivalentValue(value) : HighestEquivalentValue(value);
            }
        }

        return Max;
    }

    /// <summary>Values are equivalent when they share a counts slot; this is the lowest of <paramref name="value"/>'s.</summary>
    public long LowestEquivalentValue(long value)
    {
        int bucket = BucketIndex(value);
        return (long)SubBucketIndex(value, bucket) << bucket;
    }

    public long HighestEquivalentValue(long value) => LowestEquivalentValue(value) + SizeOfEquivalentRange(value) - 1;

    public long MedianEquivalentValue(long value) => LowestEquivalentValue(value) + (SizeOfEquivalentRange(value) >> 1);

    public long SizeOfEquivalentRange(long value)
    {
        int bucket = BucketIndex(value);
        int subBucket = SubBucketIndex(value, bucket);
        return 1L << (subBucket >= SubBucketCount ? bucket + 1 : bucket);
    }

    /// <summary>
    /// Writes the HdrHistogram percentile distribution text ("Value Percentile TotalCount 1/(1-Percentile)" rows and
    /// the #[Mean..], #[Max..], #[Buckets..] footer) read by the usual HDR plotters. Values are divided by
    /// <paramref name="outputScalingRatio"/> (e.g. Stopwatch ticks per microsecond to print microseconds).
    /// </summary>
    public void WritePercentileDistribution(TextWriter writer, double outputScalingRatio, int percentileTicksPerHalfDistance = 5)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(outputScalingRatio);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(percentileTicksPerHalfDistance);
        PercentileDistributionWriter.Write(this, writer, outputScalingRatio, percentileTicksPerHalfDistance);
    }

    internal int CountsLength => _counts.Length;

    internal long CountAtIndex(int index) => _counts[index];

    /// <summary>The lowest value counted in slot <paramref name="index"/>.</summary>
    internal long ValueFromIndex(int index)
    {
        int bucket = (index >> _subBucketHalfCountMagnitude) - 1;
        int subBucket = (index & (_subBucketHalfCount - 1)) + _subBucketHalfCount;
        if (bucket < 0)
        {
            subBucket -= _subBucketHalfCount;
            bucket = 0;
        }

        return (long)subBucket << bucket;
    }

    private bool RecordValueWithCount(long value, long count)
    {
        if (value < 0)
        {
            OutOfRangeCount += count;
            return false;
        }

        int bucket = BucketIndex(value);
        int index = ((bucket + 1) << _subBucketHalfCountMagnitude) + (SubBucketIndex(value, bucket) - _subBucketHalfCount);
        if ((uint)index >= (uint)_counts.Length)
        {
            OutOfRangeCount += count;
            return false;
        }

        _counts[index] += count;
        _totalCount += count;
        if (value < _minValue)
        {
            _minValue = value;
        }

        if (value > _maxValue)
        {
            _maxValue = value;
        }

        return true;
    }

    // Bucket = how many doublings above the unit-resolution range the value's highest set bit lies.
    private int BucketIndex(long value) => _leadingZeroCountBase - BitOperations.LeadingZeroCount((ulong)(value | _subBucketMask));

    private static int SubBucketIndex(long value, int bucket) => (int)(value >> bucket);

    private static int BucketsNeededFor(long highestTrackableValue, int subBucketCount)
    {
        long smallestUntrackable = subBucketCount;
        int buckets = 1;
        while (smallestUntrackable <= highestTrackableValue)
        {
            if (smallestUntrackable > long.MaxValue / 2)
            {
                return buckets + 1;
            }

            smallestUntrackable <<= 1;
            buckets++;
        }

        return buckets;
    }

    private static class PercentileDistributionWriter
    {
        public static void Write(LatencyHistogram histogram, TextWriter writer, double scaling, int ticksPerHalfDistance)
        {
            CultureInfo invariant = CultureInfo.InvariantCulture;
            string valueFormat = "F" + histogram.SignificantDigits.ToString(invariant);
            writer.Write(string.Format(invariant, "{0,12} {1,14} {2,10} {3,14}\n\n", "Value", "Percentile", "TotalCount", "1/(1-Percentile)"));

            long total = histogram.TotalCount;
            long countToIndex = 0;
            double level = 0;
            bool lastLineWritten = total == 0;
            for (int index = 0; index < histogram.CountsLength && !lastLineWritten; index++)
            {
                long count = histogram.CountAtIndex(index);
                if (count == 0)
                {
                    continue;
                }

                countToIndex += count;

                // Several reporting levels may be reached at one value; each gets its own row (HdrHistogram's iterator).
                while (100.0 * countToIndex / total >= level)
                {
                    string value = (histogram.HighestEquivalentValue(histogram.ValueFromIndex(index)) / scaling).ToString(valueFormat, invariant);
                    if (countToIndex == total)
                    {
                        // The last recorded value: one more row at exactly 100%, without the infinite 1/(1-p) column.
                        WriteRow(writer, value, level, countToIndex, lastRow: level >= 100);
                        if (level < 100)
                        {
                            WriteRow(writer, value, 100, countToIndex, lastRow: true);
                        }

                        lastLineWritten = true;
                        break;
                    }

                    WriteRow(writer, value, level, countToIndex, lastRow: false);
                    level = NextLevel(level, ticksPerHalfDistance);
                }
            }

            string stdFormat = "{0,12:" + valueFormat + "}";
            writer.Write(string.Format(invariant, "#[Mean    = " + stdFormat + ", StdDeviation   = " + stdFormat.Replace("{0", "{1", StringComparison.Ordinal) + "]\n", histogram.Mean / scaling, histogram.StdDeviation / scaling));
            writer.Write(string.Format(invariant, "#[Max     = " + stdFormat + ", Total count    = {1,12}]\n", histogram.Max / scaling, total));
            writer.Write(string.Format(invariant, "#[Buckets = {0,12}, SubBuckets     = {1,12}]\n", histogram.BucketCount, histogram.SubBucketCount));
        }

        private static void WriteRow(TextWriter writer, string value, double level, long countToIndex, bool lastRow)
        {
            CultureInfo invariant = CultureInfo.InvariantCulture;
            double fraction = level / 100;
            if (lastRow)
            {
                writer.Write(string.Format(invariant, "{0,12} {1:F12} {2,10}\n", value, fraction, countToIndex));
            }
            else
            {
                writer.Write(string.Format(invariant, "{0,12} {1:F12} {2,10} {3,14:F2}\n", value, fraction, countToIndex, 1 / (1 - fraction)));
            }
        }

        // Reporting levels get denser towards 100%: ticksPerHalfDistance rows for every halving of the distance.
        private static double NextLevel(double level, int ticksPerHalfDistance)
        {
            long halvings = (long)(Math.Log(100.0 / (100.0 - level)) / Math.Log(2));
            long reportingTicks = ticksPerHalfDistance * (1L << (int)Math.Min(halvings + 1, 62));
            return level + (100.0 / reportingTicks);
        }
    }
}
