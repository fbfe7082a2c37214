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
        ["IntrusiveList+SortedTree"] = (instruments, options) => new MatchingEngine<IntrusiveListOrderList, SortedTreeLevelIndex>(instruments, options),
        ["IntrusiveList+TickLadder"] = (instruments, options) => new MatchingEngine<IntrusiveListOrderList, TickLadderLevelIndex>(instruments, options),
        ["LinkedList+SortedArray"] = (instruments, options) => new MatchingEngine<LinkedListOrderList, SortedArrayLevelIndex>(instruments, options),
        ["LinkedList+SortedTree"] = (instruments, options) => new MatchingEngine<LinkedListOrderList, SortedTreeLevelIndex>(instruments, options),
        ["LinkedList+TickLadder"] = (instruments, options) => new MatchingEngine<LinkedListOrderList, TickLadderLevelIndex>(instruments, options),
        ["RingDeque+SortedArray"] = (instruments, options) => new MatchingEngine<RingDequeOrderList, SortedArrayLevelIndex>(instruments, options),
        ["RingDeque+SortedTree"] = (instruments, options) => new MatchingEngine<RingDequeOrderList, SortedTreeLevelIndex>(instruments, options),
        ["RingDeque+TickLadder"] = (instruments, options) => new MatchingEngine<RingDequeOrderList, TickLadderLevelIndex>(instruments, options),
    };

    public static IEnumerable<string> Names => Factories.Keys;

    public static IMatchingEngine Create(string name, IReadOnlyList<Instrument> instruments, EngineOptions options) =>
        Factories[name](instruments, options);
}
