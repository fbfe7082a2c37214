using HdrHistogram;

namespace Exchange.LoadClient.Histogram;

/// <summary>
/// The load client's latency record: HdrHistogram (<see cref="LongHistogram"/>) with the two things a measurement run
/// needs that the package leaves to its caller: a value outside the trackable range is counted and skipped instead of
/// throwing mid-run, and the exact minimum is kept (the package reports only the maximum).
/// </summary>
/// <remarks>Not thread-safe: recorded on the client's reader thread only and read after it has stopped.</remarks>
public sealed class LatencyHistogram
{
    private readonly LongHistogram _histogram;
    private long _min = long.MaxValue;

    /// <param name="highestTrackableValue">The largest value that can be recorded (at least 2).</param>
    /// <param name="significantDigits">Decimal digits of precision kept for every value, 1 to 5.</param>
    public LatencyHistogram(long highestTrackableValue, int significantDigits = 3)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(highestTrackableValue, 2);
        _histogram = new LongHistogram(highestTrackableValue, significantDigits);
    }

    public long HighestTrackableValue => _histogram.HighestTrackableValue;

    public long TotalCount => _histogram.TotalCount;

    /// <summary>Values not recorded because they were negative or above <see cref="HighestTrackableValue"/>.</summary>
    public long OutOfRangeCount { get; private set; }

    /// <summary>The lowest recorded value, exactly; 0 when empty.</summary>
    public long Min => TotalCount == 0 ? 0 : _min;

    /// <summary>The highest recorded value (the top of its precision range, as HdrHistogram reports it); 0 when empty.</summary>
    public long Max => TotalCount == 0 ? 0 : _histogram.GetMaxValue();

    public double Mean => TotalCount == 0 ? 0 : _histogram.GetMean();

    /// <summary>Records one value; false, and counted in <see cref="OutOfRangeCount"/>, when it is out of range.</summary>
    public bool RecordValue(long value)
    {
        if (value < 0 || value > _histogram.HighestTrackableValue)
        {
            OutOfRangeCount++;
            return false;
        }

        _histogram.RecordValue(value);
        _min = Math.Min(_min, value);
        return true;
    }

    /// <summary>The value at or below which <paramref name="percentile"/> percent of recorded values fall; 0 when empty.</summary>
    public long ValueAtPercentile(double percentile) => TotalCount == 0 ? 0 : _histogram.GetValueAtPercentile(percentile);

    /// <summary>HdrHistogram's percentile distribution text (the .hgrm format its plotters read), values divided by <paramref name="outputScalingRatio"/>.</summary>
    public void WritePercentileDistribution(TextWriter writer, double outputScalingRatio) =>
        _histogram.OutputPercentileDistribution(writer, percentileTicksPerHalfDistance: 5, outputValueUnitScalingRatio: outputScalingRatio);
}
