using System.Globalization;

namespace Exchange.Benchmarks.Engine;

/// <summary>
/// Workload sizes and selections for [ParamsSource]: a quick default that keeps CI's Dry smoke run short, changed from the
/// environment for manual runs (e.g. EXCHANGE_BENCH_RESTING=50000,2000000 for a full Nasdaq day's 2 million resting
/// orders, EXCHANGE_BENCH_COMBINATIONS=IntrusiveList+SortedArray for one strategy combination).
/// BenchmarkDotNet evaluates [ParamsSource] in the launching process and bakes the values into each benchmark process.
/// </summary>
internal static class BenchmarkEnvironment
{
    /// <summary>The combinations named in EXCHANGE_BENCH_COMBINATIONS (comma-separated), or all of them.</summary>
    public static IEnumerable<string> Combinations()
    {
        string? text = Environment.GetEnvironmentVariable("EXCHANGE_BENCH_COMBINATIONS");
        return string.IsNullOrWhiteSpace(text)
            ? EngineCombinations.Names
            : text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
    }

    public static IEnumerable<int> FromEnvironment(string variable, params int[] defaults)
    {
        string? text = Environment.GetEnvironmentVariable(variable);
        if (string.IsNullOrWhiteSpace(text))
        {
            return defaults;
        }

        return text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(value => int.Parse(value, NumberStyles.AllowThousands, CultureInfo.InvariantCulture))
            .ToArray();
    }
}
