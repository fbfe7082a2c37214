using System.Reflection;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;

// Run with: dotnet run -c Release --project benchmarks/Exchange.Benchmarks -- --filter '*'
//
// Every job runs with the JIT settings the venue runs with (Exchange.Host: tiered compilation off, so methods are
// compiled once, fully optimised, without dynamic PGO). BenchmarkDotNet's default (tiered compilation with dynamic PGO)
// measured the FIX path 25-35% faster than the code the venue executes when this was written, 5-10% since the hot path
// stopped depending on a profile (docs/MEASUREMENTS.md). `--tiered` measures that default instead.
bool tiered = args.Contains("--tiered");
args = args.Where(a => a != "--tiered").ToArray();
IConfig config = DefaultConfig.Instance;
if (!tiered)
{
    config = config.AddJob(VenueJit.Mutator);
}

// GetExecutingAssembly, not typeof(Program): Exchange.Host's own Program is visible here (InternalsVisibleTo) and the
// name would be ambiguous (CS0436).
BenchmarkSwitcher.FromAssembly(Assembly.GetExecutingAssembly()).Run(args, config);

/// <summary>The venue's JIT settings (see Exchange.Host.csproj), applied to every job a run has.</summary>
/// <remarks>
/// A build property of the process BenchmarkDotNet generates, which puts it in that process's runtimeconfig (the
/// summary shows it as Arguments=/p:TieredCompilation=false); not an environment variable, because a mutator's
/// environment would replace the variables jobs set themselves (the GC-mode jobs).
/// </remarks>
internal static class VenueJit
{
    public static Job Mutator { get; } = Job.Default.WithArguments([new MsBuildArgument("/p:TieredCompilation=false")]).AsMutator();
}
