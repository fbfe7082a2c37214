using Exchange.Benchmarks.Engine;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Plugins;
using Exchange.Strategies.LevelIndexes;
using Exchange.Strategies.OrderLists;

namespace Exchange.AotRunner;

/// <summary>
/// The engine strategies compiled in, selected by the same configuration names the plugin host uses: the catalog
/// validates and resolves the names (unknown names list what exists), then <see cref="EngineCombinations"/> maps the pair
/// to a MatchingEngine closed over the types in code. No assembly loading and no MakeGenericType, so NativeAOT can
/// compile every combination ahead of time.
/// </summary>
internal static class CompiledStrategies
{
    public static readonly StrategyCatalog Catalog = StrategyCatalog.FromTypes(
    [
        typeof(IntrusiveListOrderList),
        typeof(LinkedListOrderList),
        typeof(RingDequeOrderList),
        typeof(SortedArrayLevelIndex),
        typeof(SortedTreeLevelIndex),
        typeof(TickLadderLevelIndex),
    ]);

    /// <summary>Every "OrderList+LevelIndex" name the catalog can form.</summary>
    public static IEnumerable<string> AllCombinations =>
        from orderList in Catalog.OrderListNames
        from levelIndex in Catalog.LevelIndexNames
        select orderList + "+" + levelIndex;

    /// <summary>Resolves "OrderList+LevelIndex" (case-insensitive) to its canonical name.</summary>
    /// <exception cref="KeyNotFoundException">A name is unknown; the message lists the names that exist.</exception>
    public static string Canonical(string combination)
    {
        string[] parts = combination.Split('+', 2, StringSplitOptions.TrimEntries);
        if (parts.Length != 2)
        {
            throw new ArgumentException($"A combination is '<OrderList>+<LevelIndex>', not '{combination}'.", nameof(combination));
        }

        Type orderList = Catalog.GetOrderList(parts[0]);
        Type levelIndex = Catalog.GetLevelIndex(parts[1]);
        return orderList.Name[..^"OrderList".Length] + "+" + levelIndex.Name[..^"LevelIndex".Length];
    }

    public static IMatchingEngine Create(string combination, IReadOnlyList<Instrument> instruments, EngineOptions options) =>
        EngineCombinations.Create(Canonical(combination), instruments, options);
}
