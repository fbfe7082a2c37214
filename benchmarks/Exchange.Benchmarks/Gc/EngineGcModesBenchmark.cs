using System.Runtime;
using BenchmarkDotNet.Attributes;
using Exchange.Benchmarks.Engine;

namespace Exchange.Benchmarks.Gc;

/// <summary>
/// The Nasdaq-shaped whole-engine workload (as <see cref="EngineThroughputBenchmark"/>) for the best strategy combination
/// under Workstation non-concurrent, Workstation concurrent and Server GC (<see cref="GcModesConfig"/>). The steady state
/// allocates nothing, so the modes should differ only by noise; Allocated and the Gen0/1/2 columns show that no
/// collection happens while measuring.
/// </summary>
/// <remarks>Run: dotnet run -c Release --project benchmarks/Exchange.Benchmarks -- --filter '*EngineGcModes*'</remarks>
[MemoryDiagnoser]
[Config(typeof(GcModesConfig))]
public class EngineGcModesBenchmark
{
    private EngineWorkloadRun _run = null!;

    /// <summary>The best combination of <see cref="EngineThroughputBenchmark"/>.</summary>
    [Params("IntrusiveList+SortedArray")]
    public string Combination { get; set; } = "";

    [GlobalSetup]
    public void Setup()
    {
        // Printed into the benchmark log: proof that the job's GC mode reached the process.
        // Batch latency = non-concurrent; Interactive = concurrent (background) GC.
        Console.WriteLine($"// GC mode: server={GCSettings.IsServerGC}, latency={GCSettings.LatencyMode}");
        var workload = new NasdaqShapedWorkload(1_000, 50_000, EngineThroughputBenchmark.BlockLength);
        _run = new EngineWorkloadRun(workload, options => EngineCombinations.Create(Combination, workload.Instruments, options));
    }

    [Benchmark(OperationsPerInvoke = EngineThroughputBenchmark.BlockLength)]
    public int Replay() => _run.Replay();
}
