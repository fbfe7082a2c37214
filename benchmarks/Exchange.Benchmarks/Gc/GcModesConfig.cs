using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;

namespace Exchange.Benchmarks.Gc;

/// <summary>
/// The same benchmark under the three GC modes a host could be configured with, each in its own process.
/// </summary>
/// <remarks>
/// <para>Each job sets the GC both as a job characteristic (BenchmarkDotNet writes it into the runtimeconfig of the
/// process it builds for the job, and shows it in the summary) and as DOTNET_gcServer/DOTNET_gcConcurrent in the
/// process environment, which the runtime reads before the runtimeconfig. The environment is what makes it reliable:
/// BenchmarkDotNet 0.14.0 puts a job with an explicit Concurrent=false into the same build as a job that leaves the GC
/// unset (e.g. a command-line --job Dry, which also runs for this class) and then builds that exe with concurrent GC on.
/// The benchmark prints the GC mode the process really got.</para>
/// <para>The jobs are ShortRun-sized because they run as they are even under CI's --job Dry.</para>
/// </remarks>
public sealed class GcModesConfig : ManualConfig
{
    public GcModesConfig()
    {
        AddColumn(StatisticColumn.OperationsPerSecond); // commands/s: the benchmark's operation is one command
        SummaryStyle = SummaryStyle.Default.WithMaxParameterColumnWidth(30);
        AddJob(Mode("Workstation", server: false, concurrent: false));
        AddJob(Mode("WorkstationConcurrent", server: false, concurrent: true));
        AddJob(Mode("Server", server: true, concurrent: true));
    }

    private static Job Mode(string id, bool server, bool concurrent) => Job.ShortRun
        .WithGcServer(server)
        .WithGcConcurrent(concurrent)
        .WithEnvironmentVariables(
            new EnvironmentVariable("DOTNET_gcServer", server ? "1" : "0"),
            new EnvironmentVariable("DOTNET_gcConcurrent", concurrent ? "1" : "0"))
        .WithId(id);
}
