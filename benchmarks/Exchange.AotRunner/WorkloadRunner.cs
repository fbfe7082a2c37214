using System.Diagnostics;
using System.Globalization;
using System.Runtime;
using System.Runtime.CompilerServices;
using Exchange.Benchmarks.Engine;

namespace Exchange.AotRunner;

/// <summary>
/// Times the Nasdaq-shaped workload per combination: set up once (base book, one warm-up block), then a few
/// warm-up rounds and the measured rounds of whole block replays. Reports commands/s and bytes allocated per command
/// on this thread.
/// </summary>
internal static class WorkloadRunner
{
    private const int WarmupRounds = 2;

    public static int Run(RunnerOptions options, TextWriter output)
    {
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"# {RuntimeDescription()}, GC server={GCSettings.IsServerGC} latency={GCSettings.LatencyMode}, {Environment.ProcessorCount} CPUs"));
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"# books={options.Books} resting={options.RestingOrders} commands/round={options.Commands} rounds={options.Rounds} (+{WarmupRounds} warm-up)"));
        IEnumerable<string> combinations = string.Equals(options.Combination, "all", StringComparison.OrdinalIgnoreCase)
            ? CompiledStrategies.AllCombinations
            : [CompiledStrategies.Canonical(options.Combination)];
        foreach (string combination in combinations)
        {
            RunOne(combination, options, output);
        }

        return 0;
    }

    private static void RunOne(string combination, RunnerOptions options, TextWriter output)
    {
        var workload = new NasdaqShapedWorkload(options.Books, options.RestingOrders, 100_000);
        var run = new EngineWorkloadRun(workload, engineOptions => CompiledStrategies.Create(combination, workload.Instruments, engineOptions));
        long blocks = Math.Max(1, (options.Commands + run.BlockLength - 1) / run.BlockLength);
        long commands = blocks * run.BlockLength;
        var rates = new List<double>();
        for (int round = -WarmupRounds; round < options.Rounds; round++)
        {
            long allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
            long start = Stopwatch.GetTimestamp();
            int events = ReplayBlocks(run, blocks);
            TimeSpan elapsed = Stopwatch.GetElapsedTime(start);
            long allocated = GC.GetAllocatedBytesForCurrentThread() - allocatedBefore;
            double rate = commands / elapsed.TotalSeconds;
            if (round >= 0)
            {
                rates.Add(rate);
            }

            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{combination,-26} {(round < 0 ? "warm-up" : "round " + (round + 1)),-8} {rate,14:N0} commands/s {(double)allocated / commands,8:0.###} B/command ({events} events)"));
        }

        rates.Sort();
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{combination,-26} median   {rates[rates.Count / 2],14:N0} commands/s"));
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int ReplayBlocks(EngineWorkloadRun run, long blocks)
    {
        int events = 0;
        for (long i = 0; i < blocks; i++)
        {
            events += run.Replay();
        }

        return events;
    }

    private static string RuntimeDescription() =>
        System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription
        + (RuntimeFeature.IsDynamicCodeSupported ? " JIT" : " NativeAOT");
}
