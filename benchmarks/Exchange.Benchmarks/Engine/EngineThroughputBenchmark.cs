using BenchmarkDotNet.Attributes;

namespace Exchange.Benchmarks.Engine;

/// <summary>
/// The whole engine on a Nasdaq-shaped generated workload (<see cref="NasdaqShapedWorkload"/>), for every strategy
/// combination: one invocation replays a block of about <see cref="BlockLength"/> commands (within one), so Op/s is
/// commands/s and Allocated is bytes per command. The block returns the book to its base state and ends by starting a
/// new trading day (so its client ids may be used again), so invocations repeat exactly.
/// </summary>
/// <remarks>
/// Run: dotnet run -c Release --project benchmarks/Exchange.Benchmarks -- --filter '*EngineThroughput*' --job Short.
/// The default keeps 50,000 deep resting orders over 1,000 books (quick); a full Nasdaq day peaks near 2 million resting
/// orders over thousands of books: EXCHANGE_BENCH_RESTING=50000,2000000 EXCHANGE_BENCH_BOOKS=1000,5000 adds those sizes.
/// </remarks>
[MemoryDiagnoser]
[Config(typeof(CommandsPerSecondConfig))]
public class EngineThroughputBenchmark
{
    public const int BlockLength = 100_000;

    private EngineWorkloadRun _run = null!;

    [ParamsSource(nameof(Combinations))]
    public string Combination { get; set; } = "";

    /// <summary>Number of order books (instruments).</summary>
    [ParamsSource(nameof(BookCounts))]
    public int Books { get; set; }

    /// <summary>Deep resting orders loaded before measuring, across all books (a full Nasdaq day peaks near 2 million).</summary>
    [ParamsSource(nameof(RestingOrderCounts))]
    public int RestingOrders { get; set; }

    public static IEnumerable<string> Combinations => BenchmarkEnvironment.Combinations();

    public static IEnumerable<int> BookCounts => BenchmarkEnvironment.FromEnvironment("EXCHANGE_BENCH_BOOKS", 1_000);

    public static IEnumerable<int> RestingOrderCounts => BenchmarkEnvironment.FromEnvironment("EXCHANGE_BENCH_RESTING", 50_000);

    [GlobalSetup]
    public void Setup()
    {
        var workload = new NasdaqShapedWorkload(Books, RestingOrders, BlockLength);
        _run = new EngineWorkloadRun(workload, options => EngineCombinations.Create(Combination, workload.Instruments, options));
    }

    [Benchmark(OperationsPerInvoke = BlockLength)]
    public int Replay() => _run.Replay();
}
