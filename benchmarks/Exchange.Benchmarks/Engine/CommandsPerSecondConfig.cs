using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Reports;

namespace Exchange.Benchmarks.Engine;

/// <summary>
/// Adds BenchmarkDotNet's Op/s column to the whole-engine benchmarks. Their operation is one command
/// (OperationsPerInvoke = commands replayed per invocation), so Op/s is commands per second (= 1e9 / Mean in ns) and
/// the MemoryDiagnoser's Allocated column is bytes per command.
/// </summary>
public sealed class CommandsPerSecondConfig : ManualConfig
{
    public CommandsPerSecondConfig()
    {
        AddColumn(StatisticColumn.OperationsPerSecond);
        SummaryStyle = SummaryStyle.Default.WithMaxParameterColumnWidth(30); // full combination names, not "Intru(...)Array"
    }
}
