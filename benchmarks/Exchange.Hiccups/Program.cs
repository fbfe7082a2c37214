using System.Diagnostics;
using System.Globalization;
using Exchange.Hiccups;
using Exchange.Host.Threading;

// Spins one pinned thread per CPU for the given time, then reports each CPU's stalls and the fewest orders of a
// fixed-rate stream that any venue and client spinning on those CPUs must answer later than the latency.
if (args.Contains("--help"))
{
    Console.WriteLine(HiccupOptions.Usage);
    return 0;
}

HiccupOptions? options = HiccupOptions.Parse(args, out string? error);
if (options is null)
{
    Console.WriteLine($"error: {error}\n\n{HiccupOptions.Usage}");
    return 2;
}

double ticksPerMicrosecond = Stopwatch.Frequency / 1_000_000.0;
long threshold = Math.Max(1, (long)(options.ThresholdMicroseconds * ticksPerMicrosecond));
long latency = (long)(options.LatencyMicroseconds * ticksPerMicrosecond);
var recorders = options.Cpus.Select(_ => new StallRecorder(threshold, 1 << 20)).ToArray();
var pinned = new AffinityResult[recorders.Length];
using var ready = new Barrier(recorders.Length + 1);
long end = 0;
var threads = options.Cpus.Select((cpu, i) => new Thread(() =>
{
    pinned[i] = ThreadAffinity.PinCurrentThread(cpu);
    ready.SignalAndWait();
    ready.SignalAndWait();
    recorders[i].Run(Volatile.Read(ref end));
}) { Name = $"spin-{cpu}" }).ToArray();
foreach (Thread t in threads)
{
    t.Start();
}

ready.SignalAndWait();
long start = Stopwatch.GetTimestamp();
Volatile.Write(ref end, start + (long)(options.Seconds * Stopwatch.Frequency));
ready.SignalAndWait();
foreach (Thread t in threads)
{
    t.Join();
}

CultureInfo c = CultureInfo.InvariantCulture;
double Ms(long ticks) => ticks / ticksPerMicrosecond / 1000;
Console.WriteLine(string.Format(c, "{0} s spinning on CPUs {1}; gaps over {2} us recorded", options.Seconds, string.Join(",", options.Cpus), options.ThresholdMicroseconds));
for (int i = 0; i < recorders.Length; i++)
{
    ReadOnlySpan<Stall> stalls = recorders[i].Stalls;
    long all = 0, over = 0, overCount = 0, max = 0;
    foreach (Stall s in stalls)
    {
        all += s.LengthTicks;
        max = Math.Max(max, s.LengthTicks);
        if (s.LengthTicks > latency)
        {
            over += s.LengthTicks;
            overCount++;
        }
    }

    Console.WriteLine(string.Format(c,
        "cpu {0} ({1}): {2} gaps, {3:F1} ms in all; {4} over {5} us, {6:F1} ms; longest {7:F2} ms{8}",
        options.Cpus[i], pinned[i].Outcome, stalls.Length, Ms(all), overCount, options.LatencyMicroseconds, Ms(over), Ms(max),
        recorders[i].Dropped > 0 ? $" ({recorders[i].Dropped} more not kept)" : string.Empty));
}

Stall[] allStalls = recorders.SelectMany(r => r.Stalls.ToArray()).ToArray();
long duration = (long)(options.Seconds * Stopwatch.Frequency);
long orders = StallBound.OrdersInWindow(duration, options.Rate, Stopwatch.Frequency);
long late = StallBound.LateOrdersAtLeast(allStalls, latency, options.Rate, Stopwatch.Frequency);
long expected = StallBound.OrdersInWindow(StallBound.LateWindowTicks(allStalls, latency), options.Rate, Stopwatch.Frequency);
double share = orders == 0 ? 0 : 100.0 * late / orders;
Console.WriteLine(string.Format(c,
    "at {0}/s, at least {1} of {2} orders ({3:F2}%; {4} on average over the stream's phase) would take longer than {5} us on these CPUs, even with a venue and client that take no time",
    options.Rate, late, orders, share, expected, options.LatencyMicroseconds));
Console.WriteLine(string.Format(c, "floor at {0}/s from these stalls alone: p99 {1:F0} us, p99.9 {2:F0} us", options.Rate,
    StallBound.PercentileFloorTicks(allStalls, 0.01, duration, options.Rate, Stopwatch.Frequency) / ticksPerMicrosecond,
    StallBound.PercentileFloorTicks(allStalls, 0.001, duration, options.Rate, Stopwatch.Frequency) / ticksPerMicrosecond));
Console.WriteLine(share > 1
    ? string.Format(c, "so with stalls like these a p99 of {0} us cannot be reached at this rate", options.LatencyMicroseconds)
    : string.Format(c, "so stalls like these do not rule out a p99 of {0} us", options.LatencyMicroseconds));
return 0;
