using BenchmarkDotNet.Running;

// Run with: dotnet run -c Release --project benchmarks/Exchange.Benchmarks -- --filter '*'
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
