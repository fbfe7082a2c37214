using System.Reflection;
using BenchmarkDotNet.Running;

// Run with: dotnet run -c Release --project benchmarks/Exchange.Benchmarks -- --filter '*'
// GetExecutingAssembly, not typeof(Program): Exchange.Host's own Program is visible here (InternalsVisibleTo) and the
// name would be ambiguous (CS0436).
BenchmarkSwitcher.FromAssembly(Assembly.GetExecutingAssembly()).Run(args);
