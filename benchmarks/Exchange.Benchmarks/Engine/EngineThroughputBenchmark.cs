using BenchmarkDotNet.Attributes;
using Exchange.Core.Commands;
using Exchange.Core.Engine;

namespace Exchange.Benchmarks.Engine;

/// <summary>
/// The whole engine on a Nasdaq-shaped generated workload (<see cref="NasdaqShapedWorkload"/>): one invocation replays
/// a block of about <see cref="BlockLength"/> commands (within one), so BenchmarkDotNet's ops/s is commands/s and allocated bytes per
/// operation is bytes per command. The block returns the book to its base state, so invocations repeat exactly.
/// </summary>
/// <remarks>Run: dotnet run -c Release --project benchmarks/Exchange.Benchmarks -- --filter '*EngineThroughput*'</remarks>
[MemoryDiagnoser]
public class EngineThroughputBenchmark
{
    private const int BlockLength = 100_000;

    private Command[] _block = [];
    private IMatchingEngine _engine = null!;

    [ParamsSource(nameof(Combinations))]
    public string Combination { get; set; } = "";

    /// <summary>Number of order books (instruments).</summary>
    [Params(1_000)]
    public int Books { get; set; }

    /// <summary>Deep resting orders loaded before measuring, across all books (a full Nasdaq day peaks near 2 million).</summary>
    [Params(50_000)]
    public int RestingOrders { get; set; }

    public static IEnumerable<string> Combinations => EngineCombinations.Names;

    [GlobalSetup]
    public void Setup()
    {
        var workload = new NasdaqShapedWorkload(Books, RestingOrders, BlockLength);
        var options = new EngineOptions { InitialOrderCapacity = RestingOrders + BlockLength, InitialLevelCapacity = Books * 128 };
        _engine = EngineCombinations.Create(Combination, workload.Instruments, options);
        foreach (Command command in workload.BaseBook)
        {
            _engine.Process(in command);
        }

        _block = workload.Block;
        Replay(); // first pass grows any pool that still needs it, outside the measurement
    }

    [Benchmark(OperationsPerInvoke = BlockLength)]
    public int Replay()
    {
        int events = 0;
        Command[] block = _block;
        for (int i = 0; i < block.Length; i++)
        {
            events += _engine.Process(in block[i]).Length;
        }

        return events;
    }
}
