using Exchange.Core.Plugins;
using Exchange.Core.Tests.MarketData;
using Exchange.Strategies.MarketData;
using Xunit;

namespace Exchange.Core.Tests.Plugins;

/// <summary>The catalog built from compiled-in types (the NativeAOT path): naming, lookup and the rules it enforces.</summary>
public sealed class StrategyCatalogTests
{
    private static readonly StrategyCatalog Catalog =
        StrategyCatalog.FromTypes([typeof(ProbeOrderList), typeof(ProbeLevelIndex), .. MarketDataStores.All]);

    [Fact]
    public void Names_are_type_names_without_the_family_suffix_sorted()
    {
        Assert.Equal(["Probe"], Catalog.OrderListNames);
        Assert.Equal(["Probe"], Catalog.LevelIndexNames);
        Assert.Equal(
            ["InterlockedSnapshot", "Lock", "ReaderWriterLock", "SeqLock", "VolatileSnapshot"],
            Catalog.MarketDataStoreNames);
    }

    [Fact]
    public void Lookup_ignores_case_and_returns_the_type()
    {
        Assert.Equal(typeof(ProbeOrderList), Catalog.GetOrderList("probe"));
        Assert.Equal(typeof(ProbeLevelIndex), Catalog.GetLevelIndex("PROBE"));
        Assert.Equal(typeof(SeqLockMarketDataStore), Catalog.GetMarketDataStore("seqlock"));
        Assert.IsType<ReaderWriterLockMarketDataStore>(Catalog.CreateMarketDataStore("ReaderWriterLock"));
    }

    [Fact]
    public void An_unknown_name_names_the_family_and_lists_what_exists()
    {
        var error = Assert.Throws<KeyNotFoundException>(() => Catalog.GetMarketDataStore("Foo"));
        Assert.Equal(
            "Unknown market-data store strategy 'Foo'. Available: InterlockedSnapshot, Lock, ReaderWriterLock, SeqLock, VolatileSnapshot.",
            error.Message);

        error = Assert.Throws<KeyNotFoundException>(() => Catalog.GetOrderList("SeqLock"));
        Assert.Equal("Unknown order list strategy 'SeqLock'. Available: Probe.", error.Message);
    }

    [Fact]
    public void An_empty_family_says_so()
    {
        var catalog = StrategyCatalog.FromTypes([typeof(SeqLockMarketDataStore)]);
        var error = Assert.Throws<KeyNotFoundException>(() => catalog.GetLevelIndex("SortedArray"));
        Assert.Equal("Unknown price-level index strategy 'SortedArray'. Available: none.", error.Message);
    }

    [Fact]
    public void The_same_type_given_twice_is_one_strategy()
    {
        var catalog = StrategyCatalog.FromTypes([typeof(LockMarketDataStore), typeof(LockMarketDataStore)]);
        Assert.Equal(["Lock"], catalog.MarketDataStoreNames);
    }

    [Theory]
    [InlineData(typeof(ClassOrderList), "must be a struct")]
    [InlineData(typeof(ProbeQueue), "must be named <Name>OrderList")]
    [InlineData(typeof(ConfiguredMarketDataStore), "public parameterless constructor")]
    [InlineData(typeof(NoopMarketDataStore), "must be a non-abstract class")]
    [InlineData(typeof(string), "is not a strategy")]
    public void A_type_that_breaks_a_rule_is_rejected_with_the_reason(Type type, string reason)
    {
        var error = Assert.Throws<ArgumentException>(() => StrategyCatalog.FromTypes([typeof(SeqLockMarketDataStore), type]));
        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
        Assert.Contains(type.FullName!, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Two_strategies_with_one_name_are_rejected()
    {
        var error = Assert.Throws<ArgumentException>(() =>
            StrategyCatalog.FromTypes([typeof(FirstVendor.TwinMarketDataStore), typeof(SecondVendor.TwinMarketDataStore)]));
        Assert.Contains("Two market-data store strategies are named 'Twin'", error.Message, StringComparison.Ordinal);
    }
}
