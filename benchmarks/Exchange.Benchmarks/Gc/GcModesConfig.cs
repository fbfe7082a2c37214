using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Jobs;

namespace Exchange.Benchmarks.Gc;

/// <summary>
/// The same benchmark under the three GC modes a host could be configured with. BenchmarkDotNet writes each job's GC
/// settings into the runtimeconfig of the process it spawns for it, so each mode runs in its own process.
/// </summary>
/// <remarks>
/// The jobs are ShortRun-sized: a type's own jobs take precedence over a command-line --job (which BenchmarkDotNet treats
/// as the default job), so these must be cheap enough for CI's Dry smoke run as they are.
/// </remarks>
public sealed class GcModesConfig : ManualConfig
{
    public GcModesConfig()
    {
        AddColumn(StatisticColumn.OperationsPerSecond); // commands/s: the benchmark's operation is one command
        SummaryStyle = SummaryStyle.Default.WithMaxParameterColumnWidth(30);
        AddJob(Job.ShortRun.WithGcServer(false).WithGcConcurrent(false).WithId("Workstation"));
        AddJob(Job.ShortRun.WithGcServer(false).WithGcConcurrent(true).WithId("WorkstationConcurrent"));
        AddJob(Job.ShortRun.WithGcServer(true).WithGcConcurrent(true).WithId("Server"));
    }
}
