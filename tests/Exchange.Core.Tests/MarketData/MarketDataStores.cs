using Exchange.Core.Strategies;
using Exchange.Strategies.MarketData;
using Xunit;

namespace Exchange.Core.Tests.MarketData;

/// <summary>Every market-data store strategy, compiled in, for theories that run against each.</summary>
internal static class MarketDataStores
{
    public static readonly Type[] All =
    [
        typeof(VolatileSnapshotMarketDataStore),
        typeof(InterlockedSnapshotMarketDataStore),
        typeof(LockMarketDataStore),
        typeof(ReaderWriterLockMarketDataStore),
        typeof(SeqLockMarketDataStore),
    ];

    /// <summary>Type names of <see cref="All"/>, as theory data (readable test names).</summary>
    public static TheoryData<string> Names() => new(All.Select(t => t.Name));

    public static IMarketDataStore Create(string typeName) =>
        (IMarketDataStore)Activator.CreateInstance(All.Single(t => t.Name == typeName))!;
}
