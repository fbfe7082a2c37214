using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Strategies.LevelIndexes;
using Exchange.Strategies.OrderLists;

namespace Exchange.Benchmarks.Engine;

/// <summary>
/// The engine closed over each strategy combination, compiled in directly (the plugin-loaded path is measured
/// elsewhere). Add a line per new combination; benchmarks parametrised over <see cref="Names"/> pick it up.
/// </summary>
internal static class EngineCombinations
{
    private static readonly Dictionary<string, Func<IReadOnlyList<Instrument>, EngineOptions, IMatchingEngine>> Factories = new()
    {
        ["IntrusiveList+SortedArray"] = (instruments, options) => new MatchingEngine<IntrusiveListOrderList, SortedArrayLevelIndex>(instruments, options),
    };

    public static IEnumerable<string> Names => Factories.Keys;

    public static IMatchingEngine Create(string name, IReadOnlyList<Instrument> instruments, EngineOptions options) =>
        Factories[name](instruments, options);
}
