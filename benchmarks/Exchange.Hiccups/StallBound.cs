namespace Exchange.Hiccups;

/// <summary>
/// The fewest orders of a fixed-rate stream that must exceed a latency, whatever the venue and client do, given the
/// stalls of the CPUs they spin on.
/// </summary>
/// <remarks>
/// An order has to be handled on every CPU of its round trip: the client's to send it and read the reply, the venue's
/// to match it. While one of those CPUs is stalled from s to s+g, an order due at t in [s, s+g-L) cannot be answered
/// before s+g, later than t+L. So at least rate × |union of [s, s+g-L)| orders exceed L, even for a venue and client
/// that take no time at all. Overlapping windows on different CPUs are counted once.
/// </remarks>
internal static class StallBound
{
    /// <summary>Total length, in ticks, of the union over all stalls of [start, start + length - latency).</summary>
    public static long LateWindowTicks(IEnumerable<Stall> stalls, long latencyTicks)
    {
        ArgumentNullException.ThrowIfNull(stalls);
        ArgumentOutOfRangeException.ThrowIfNegative(latencyTicks);
        List<(long Start, long End)> windows = stalls
            .Where(s => s.LengthTicks > latencyTicks)
            .Select(s => (s.StartTicks, s.StartTicks + s.LengthTicks - latencyTicks))
            .OrderBy(w => w.Item1)
            .ToList();
        long total = 0;
        long coveredTo = long.MinValue;
        foreach ((long start, long end) in windows)
        {
            long from = Math.Max(start, coveredTo);
            if (end > from)
            {
                total += end - from;
            }

            coveredTo = Math.Max(coveredTo, end);
        }

        return total;
    }

    /// <summary>
    /// The lowest latency that at most <paramref name="share"/> of the orders (0.01 for a p99) must exceed: below it the
    /// stalls alone make more orders late. A floor for that percentile, in ticks.
    /// </summary>
    public static long PercentileFloorTicks(IReadOnlyCollection<Stall> stalls, double share, long durationTicks, long ratePerSecond, long ticksPerSecond)
    {
        ArgumentNullException.ThrowIfNull(stalls);
        long allowed = (long)(share * OrdersInWindow(durationTicks, ratePerSecond, ticksPerSecond));
        long low = 0;
        long high = stalls.Count == 0 ? 0 : stalls.Max(s => s.LengthTicks);
        while (low < high)
        {
            long mid = low + ((high - low) / 2);
            if (OrdersInWindow(LateWindowTicks(stalls, mid), ratePerSecond, ticksPerSecond) <= allowed)
            {
                high = mid;
            }
            else
            {
                low = mid + 1;
            }
        }

        return low;
    }

    /// <summary>Orders of a <paramref name="ratePerSecond"/> stream due inside <paramref name="windowTicks"/>.</summary>
    public static long OrdersInWindow(long windowTicks, long ratePerSecond, long ticksPerSecond) =>
        (long)((Int128)windowTicks * ratePerSecond / ticksPerSecond);
}
