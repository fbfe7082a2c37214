namespace Exchange.Hiccups;

/// <summary>
/// How many orders of a fixed-rate stream must exceed a latency, whatever the venue and client do, given the stalls
/// of the CPUs they spin on; and the lowest latency a percentile can have under those stalls.
/// </summary>
/// <remarks>
/// An order has to be handled on every CPU of its round trip: the client's to send it and read the reply, the venue's
/// to match it. While one of those CPUs is stalled from s to s+g, an order due at t in [s, s+g-L) cannot be answered
/// before s+g, later than t+L. So every order due inside the union of those windows exceeds L, even for a venue and
/// client that take no time at all; overlapping windows on different CPUs are counted once. A window of length w holds
/// at least floor(w × rate) orders whatever the stream's phase (the guaranteed count) and w × rate on average (the
/// expected count). The stalls come from a separate sample of the machine, not from the run itself, and every CPU
/// given is taken to be on the orders' path: pass exactly the CPUs the venue and client use.
/// </remarks>
internal static class StallBound
{
    /// <summary>The union over all stalls of [start, start + length - latency), as sorted disjoint intervals.</summary>
    public static List<(long Start, long End)> LateWindows(IEnumerable<Stall> stalls, long latencyTicks)
    {
        ArgumentNullException.ThrowIfNull(stalls);
        ArgumentOutOfRangeException.ThrowIfNegative(latencyTicks);
        var merged = new List<(long Start, long End)>();
        foreach ((long start, long end) in stalls
            .Where(s => s.LengthTicks > latencyTicks)
            .Select(s => (s.StartTicks, s.StartTicks + s.LengthTicks - latencyTicks))
            .OrderBy(w => w.Item1))
        {
            if (merged.Count > 0 && start <= merged[^1].End)
            {
                merged[^1] = (merged[^1].Start, Math.Max(merged[^1].End, end));
            }
            else
            {
                merged.Add((start, end));
            }
        }

        return merged;
    }

    /// <summary>Total length of <see cref="LateWindows"/>, in ticks.</summary>
    public static long LateWindowTicks(IEnumerable<Stall> stalls, long latencyTicks) =>
        LateWindows(stalls, latencyTicks).Sum(w => w.End - w.Start);

    /// <summary>Orders that are late whatever the stream's phase: the whole orders each window must hold.</summary>
    public static long LateOrdersAtLeast(IEnumerable<Stall> stalls, long latencyTicks, long ratePerSecond, long ticksPerSecond) =>
        LateWindows(stalls, latencyTicks).Sum(w => OrdersInWindow(w.End - w.Start, ratePerSecond, ticksPerSecond));

    /// <summary>
    /// The lowest latency that at most <paramref name="share"/> of the orders (0.01 for a p99) are guaranteed to exceed:
    /// below it the stalls alone make more orders late, so the percentile cannot be lower. In ticks.
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
            if (LateOrdersAtLeast(stalls, mid, ratePerSecond, ticksPerSecond) <= allowed)
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

    /// <summary>Whole orders of a <paramref name="ratePerSecond"/> stream in <paramref name="windowTicks"/>, rounded down.</summary>
    public static long OrdersInWindow(long windowTicks, long ratePerSecond, long ticksPerSecond) =>
        (long)((Int128)windowTicks * ratePerSecond / ticksPerSecond);
}
