using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Strategies;
using Exchange.Strategies.LevelIndexes;
using Exchange.Strategies.MarketData;
using Exchange.Strategies.OrderLists;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// Every strategy combination the engine tests run against. To add a strategy, add its type to <see cref="OrderLists"/>
/// or <see cref="LevelIndexes"/>; the cross product (and every test using it) follows.
/// </summary>
public static class StrategyMatrix
{
    private static readonly Type[] OrderLists =
    [
        typeof(IntrusiveListOrderList),
        typeof(LinkedListOrderList),
        typeof(RingDequeOrderList),
    ];

    private static readonly Type[] LevelIndexes =
    [
        typeof(SortedArrayLevelIndex),
        typeof(SortedTreeLevelIndex),
        typeof(TickLadderLevelIndex),
    ];

    private static readonly Type[] MarketDataStores =
    [
        typeof(SeqLockMarketDataStore),
        typeof(LockMarketDataStore),
        typeof(ReaderWriterLockMarketDataStore),
        typeof(VolatileSnapshotMarketDataStore),
        typeof(InterlockedSnapshotMarketDataStore),
    ];

    private static readonly Dictionary<string, (Type List, Type Index)> ByName = BuildNames();

    /// <summary>Market-data store names, as configuration spells them.</summary>
    public static IReadOnlyList<string> MarketDataStoreNames { get; } = MarketDataStores.Select(t => ShortName(t, "MarketDataStore")).ToArray();

    /// <summary>A new, initialised market-data store by configuration name.</summary>
    public static IMarketDataStore CreateMarketDataStore(string name, int instrumentCount)
    {
        Type type = MarketDataStores.Single(t => ShortName(t, "MarketDataStore") == name);
        var store = (IMarketDataStore)Activator.CreateInstance(type)!;
        store.Initialize(instrumentCount);
        return store;
    }

    /// <summary>xUnit member data: one row per combination, named "List+Index" so each shows as its own test case.</summary>
    public static IEnumerable<object[]> Combinations => ByName.Keys.Select(name => new object[] { name });

    public static IReadOnlyCollection<string> Names => ByName.Keys;

    public static IReadOnlyList<Type> OrderListTypes => OrderLists;

    public static IReadOnlyList<Type> LevelIndexTypes => LevelIndexes;

    /// <summary>Builds the engine for a combination named by <see cref="Combinations"/>.</summary>
    public static IMatchingEngine Create(string combination, IReadOnlyList<Instrument> instruments, EngineOptions? options = null)
    {
        (Type list, Type index) = ByName[combination];
        Type engine = typeof(MatchingEngine<,>).MakeGenericType(list, index);
        return (IMatchingEngine)Activator.CreateInstance(engine, instruments, options ?? new EngineOptions())!;
    }

    /// <summary>The directly compiled form, for tests that need a specific closed type.</summary>
    public static MatchingEngine<TList, TIndex> Create<TList, TIndex>(IReadOnlyList<Instrument> instruments, EngineOptions? options = null)
        where TList : struct, IOrderList
        where TIndex : struct, IPriceLevelIndex
        => new(instruments, options ?? new EngineOptions());

    private static Dictionary<string, (Type, Type)> BuildNames()
    {
        var names = new Dictionary<string, (Type, Type)>();
        foreach (Type list in OrderLists)
        {
            foreach (Type index in LevelIndexes)
            {
                names.Add($"{ShortName(list, "OrderList")}+{ShortName(index, "LevelIndex")}", (list, index));
            }
        }

        return names;
    }

    private static string ShortName(Type type, string suffix) =>
        type.Name.EndsWith(suffix, StringComparison.Ordinal) ? type.Name[..^suffix.Length] : type.Name;
}
