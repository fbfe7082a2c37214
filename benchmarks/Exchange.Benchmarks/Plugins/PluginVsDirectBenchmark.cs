using System.Runtime.Loader;
using BenchmarkDotNet.Attributes;
using Exchange.Benchmarks.Engine;
using Exchange.Core.Engine;
using Exchange.Core.Plugins;
using Exchange.Strategies.LevelIndexes;
using Exchange.Strategies.OrderLists;

namespace Exchange.Benchmarks.Plugins;

/// <summary>
/// The engine built as the host builds it (strategies loaded by name from plugin assemblies in a plugins/ folder through
/// <see cref="StrategyCatalog.LoadFrom"/>, generics closed at run time by <see cref="MatchingEngineFactory"/>) against the
/// same engine compiled in directly, on the Nasdaq-shaped workload. Both are reached through <see cref="IMatchingEngine"/>
/// (one interface call per command, as the host does); the target is under 5% apart.
/// </summary>
/// <remarks>Run: dotnet run -c Release --project benchmarks/Exchange.Benchmarks -- --filter '*PluginVsDirect*' --job Short</remarks>
[MemoryDiagnoser]
[Config(typeof(CommandsPerSecondConfig))]
public class PluginVsDirectBenchmark
{
    private EngineWorkloadRun _run = null!;
    private string? _pluginRoot;

    [Params("Direct", "Plugin")]
    public string Build { get; set; } = "";

    [GlobalSetup]
    public void Setup()
    {
        var workload = new NasdaqShapedWorkload(1_000, 50_000, EngineThroughputBenchmark.BlockLength);
        _run = new EngineWorkloadRun(workload, options => Build == "Plugin"
            ? CreateFromPlugins(workload, options)
            : new MatchingEngine<IntrusiveListOrderList, SortedArrayLevelIndex>(workload.Instruments, options));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        if (_pluginRoot == null)
        {
            return;
        }

        try
        {
            Directory.Delete(_pluginRoot, recursive: true);
        }
        catch (IOException)
        {
            // a loaded plugin may keep its file open; the temp folder is then left behind
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    [Benchmark(OperationsPerInvoke = EngineThroughputBenchmark.BlockLength)]
    public int Replay() => _run.Replay();

    /// <summary>Copies the strategy assemblies built beside the benchmark into a temporary plugins/ folder and loads them by name.</summary>
    private IMatchingEngine CreateFromPlugins(NasdaqShapedWorkload workload, EngineOptions options)
    {
        _pluginRoot = Path.Combine(Path.GetTempPath(), "exchange-plugin-bench-" + Guid.NewGuid().ToString("N"));
        string plugins = Directory.CreateDirectory(Path.Combine(_pluginRoot, "plugins")).FullName;
        foreach (string path in Directory.GetFiles(AppContext.BaseDirectory, "Exchange.Strategies.*.dll"))
        {
            File.Copy(path, Path.Combine(plugins, Path.GetFileName(path)));
        }

        StrategyCatalog catalog = StrategyCatalog.LoadFrom(plugins);
        Type orderList = catalog.GetOrderList("IntrusiveList");
        Type levelIndex = catalog.GetLevelIndex("SortedArray");
        if (AssemblyLoadContext.GetLoadContext(orderList.Assembly) == AssemblyLoadContext.Default)
        {
            throw new InvalidOperationException("The order list came from the default context, not from plugins/: nothing would be measured.");
        }

        return MatchingEngineFactory.Create(orderList, levelIndex, workload.Instruments, options);
    }
}
