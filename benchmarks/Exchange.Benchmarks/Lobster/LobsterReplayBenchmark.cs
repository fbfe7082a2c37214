using BenchmarkDotNet.Attributes;
using Exchange.Benchmarks.Engine;
using Exchange.Core.Commands;
using Exchange.Core.Engine;

namespace Exchange.Benchmarks.Lobster;

/// <summary>
/// The whole engine replaying the real Nasdaq order flow of the LOBSTER samples (AAPL, AMZN and GOOG on 2012-06-21,
/// merged in time order: submissions, partial cancels, deletions, executions applied to the resting order), for every
/// strategy combination. Op/s is commands/s, Allocated is bytes per command.
/// </summary>
/// <remarks>
/// <para>The replay is not repeatable on one engine (it leaves orders resting), so each iteration gets a fresh engine in
/// [IterationSetup], outside the measured region, and replays the first <see cref="ReplayLength"/> commands once
/// (one invocation per iteration: at millions of commands per second that is tens of milliseconds, long enough to time).
/// A fixed length keeps OperationsPerInvoke a constant; the merged stream is longer, so this is the trading day up to
/// some time across all three symbols.</para>
/// <para>Run: dotnet run -c Release --project benchmarks/Exchange.Benchmarks -- --filter '*LobsterReplay*' --job Short</para>
/// </remarks>
[MemoryDiagnoser]
[Config(typeof(CommandsPerSecondConfig))]
[InvocationCount(1)]
public class LobsterReplayBenchmark
{
    public const int ReplayLength = 300_000; // the three samples map to 312,874 commands

    private LobsterReplayData _data = null!;
    private IMatchingEngine _engine = null!;

    [ParamsSource(nameof(Combinations))]
    public string Combination { get; set; } = "";

    public static IEnumerable<string> Combinations => BenchmarkEnvironment.Combinations();

    [GlobalSetup]
    public void Setup()
    {
        _data = LobsterReplayData.Load();
        if (_data.Commands.Length < ReplayLength)
        {
            throw new InvalidOperationException(
                $"The LOBSTER samples map to {_data.Commands.Length} commands, fewer than ReplayLength ({ReplayLength}).");
        }
    }

    [IterationSetup]
    public void CreateEngine()
    {
        _engine = null!;
        _engine = EngineCombinations.Create(Combination, _data.Instruments, _data.Options);
    }

    [Benchmark(OperationsPerInvoke = ReplayLength)]
    public int Replay()
    {
        int events = 0;
        Command[] commands = _data.Commands;
        IMatchingEngine engine = _engine;
        for (int i = 0; i < ReplayLength; i++)
        {
            events += engine.Process(in commands[i]).Length;
        }

        return events;
    }
}
