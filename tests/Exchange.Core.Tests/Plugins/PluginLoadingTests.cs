using System.Runtime.Loader;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Exchange.Core.Plugins;
using Exchange.Core.Strategies;
using Exchange.Core.Tests.MarketData;
using Exchange.Strategies.MarketData;
using Xunit;

namespace Exchange.Core.Tests.Plugins;

/// <summary>
/// Strategies loaded by name from the built plugin assemblies, laid out as the host sees them: a plugins/ folder holding
/// the Exchange.Strategies.*.dll files (plus, as a careless deployment might, a copy of Exchange.Core.dll and a
/// native library that is not a .NET assembly).
/// </summary>
public sealed class PluginLoadingTests(PluginLoadingTests.PluginsFolder folder) : IClassFixture<PluginLoadingTests.PluginsFolder>
{
    private StrategyCatalog Catalog => folder.Catalog;

    public static TheoryData<string> MarketDataStoreNames() =>
        new(MarketDataStores.All.Select(t => t.Name[..^"MarketDataStore".Length]));

    [Fact]
    public void Every_market_data_store_is_found_by_name()
    {
        Assert.Subset(
            new HashSet<string>(["VolatileSnapshot", "InterlockedSnapshot", "Lock", "ReaderWriterLock", "SeqLock"]),
            new HashSet<string>(Catalog.MarketDataStoreNames));
    }

    [Fact]
    public void Every_order_list_and_level_index_is_found_by_name()
    {
        Assert.Equal(["IntrusiveList", "LinkedList", "RingDeque"], Catalog.OrderListNames);
        Assert.Equal(["SortedArray", "SortedTree", "TickLadder"], Catalog.LevelIndexNames);
    }

    [Fact]
    public void Every_plugin_loaded_combination_builds_an_engine_that_matches()
    {
        Instrument[] instruments = [new Instrument(0, "TEST", 4, 100, 1, 100, 1_000_000)];
        foreach (string list in Catalog.OrderListNames)
        {
            foreach (string index in Catalog.LevelIndexNames)
            {
                IMatchingEngine engine = MatchingEngineFactory.Create(
                    Catalog.GetOrderList(list), Catalog.GetLevelIndex(index), instruments, new EngineOptions());
                Assert.Equal([Catalog.GetOrderList(list), Catalog.GetLevelIndex(index)], engine.GetType().GetGenericArguments());

                var sell = new Command { Type = CommandType.NewOrder, Side = Side.Sell, OrderType = OrderType.Limit, TimeInForce = TimeInForce.Day, Price = 10_000, Quantity = 5, ClOrdId = ClOrdId.From("S1"), OwnerId = 1 };
                var buy = sell with { Side = Side.Buy, Price = 10_100, Quantity = 3, ClOrdId = ClOrdId.From("B1"), OwnerId = 2 };
                Assert.Equal(EventType.Accepted, Assert.Single(engine.Process(in sell).ToArray()).Type);
                EngineEvent[] events = engine.Process(in buy).ToArray();

                Assert.Equal([EventType.Accepted, EventType.Trade, EventType.Trade], events.Select(e => e.Type));
                Assert.All(events.Skip(1), e => Assert.Equal((10_000L, 3L), (e.LastPrice, e.LastQuantity)));
                Assert.Equal(2, Assert.Single(engine.GetRestingOrders(0, Side.Sell)).LeavesQuantity);
            }
        }
    }

    [Fact]
    public void Every_discovered_name_maps_back_to_a_type_named_name_plus_suffix()
    {
        var families = new (IReadOnlyList<string> Names, Func<string, Type> Get, string Suffix)[]
        {
            (Catalog.OrderListNames, Catalog.GetOrderList, "OrderList"),
            (Catalog.LevelIndexNames, Catalog.GetLevelIndex, "LevelIndex"),
            (Catalog.MarketDataStoreNames, Catalog.GetMarketDataStore, "MarketDataStore"),
        };
        foreach (var (names, get, suffix) in families)
        {
            foreach (var name in names)
            {
                var type = get(name);
                Assert.Equal(name + suffix, type.Name);
                Assert.IsType<PluginLoadContext>(AssemblyLoadContext.GetLoadContext(type.Assembly));
            }
        }
    }

    [Theory]
    [MemberData(nameof(MarketDataStoreNames))]
    public void A_store_loaded_from_its_plugin_publishes_and_reads(string name)
    {
        var type = Catalog.GetMarketDataStore(name);

        // Loaded from plugins/, not the copy the test compiled against, yet it implements the host's own contract.
        Assert.NotSame(typeof(SeqLockMarketDataStore).Assembly, type.Assembly);
        Assert.True(typeof(IMarketDataStore).IsAssignableFrom(type));

        var store = Catalog.CreateMarketDataStore(name.ToUpperInvariant());
        store.Initialize(2);
        var depth = default(BookDepth);
        DepthPattern.Fill(ref depth, 41, 2);
        store.Publish(depth);
        var read = default(BookDepth);

        Assert.True(store.TryRead(1, ref read));
        Assert.Equal(41, read.Version);
        Assert.Null(DepthPattern.FindInconsistency(read, 2));
        Assert.False(store.TryRead(0, ref read));
    }

    [Fact]
    public void An_unknown_name_lists_the_names_that_exist()
    {
        var error = Assert.Throws<KeyNotFoundException>(() => Catalog.GetMarketDataStore("Disruptor"));
        Assert.StartsWith("Unknown market-data store strategy 'Disruptor'. Available: ", error.Message, StringComparison.Ordinal);
        foreach (var name in new[] { "VolatileSnapshot", "InterlockedSnapshot", "Lock", "ReaderWriterLock", "SeqLock" })
        {
            Assert.Contains(name, error.Message, StringComparison.Ordinal);
        }

        var orderListError = Assert.Throws<KeyNotFoundException>(() => Catalog.GetOrderList("Foo"));
        Assert.StartsWith("Unknown order list strategy 'Foo'. Available: ", orderListError.Message, StringComparison.Ordinal);
        Assert.All(Catalog.OrderListNames, name => Assert.Contains(name, orderListError.Message, StringComparison.Ordinal));
    }

    [Fact]
    public void A_missing_directory_is_a_clear_error()
    {
        var missing = Path.Combine(folder.Root, "no-such-plugins");
        var error = Assert.Throws<DirectoryNotFoundException>(() => StrategyCatalog.LoadFrom(missing));
        Assert.Contains(missing, error.Message, StringComparison.Ordinal);
    }

    /// <summary>Copies the built plugins into a temporary plugins/ folder and loads the catalog once for the class.</summary>
    public sealed class PluginsFolder : IDisposable
    {
        public PluginsFolder()
        {
            Root = Path.Combine(Path.GetTempPath(), "exchange-plugin-tests-" + Guid.NewGuid().ToString("N"));
            var plugins = Directory.CreateDirectory(Path.Combine(Root, "plugins")).FullName;
            var built = Directory.GetFiles(AppContext.BaseDirectory, "Exchange.Strategies.*.dll");
            Assert.Contains(built, path => Path.GetFileName(path) == "Exchange.Strategies.MarketData.dll");
            foreach (var path in built)
            {
                File.Copy(path, Path.Combine(plugins, Path.GetFileName(path)));
            }

            File.Copy(typeof(IMarketDataStore).Assembly.Location, Path.Combine(plugins, "Exchange.Core.dll"));
            File.WriteAllBytes(Path.Combine(plugins, "libnative.dll"), [0x7F, (byte)'E', (byte)'L', (byte)'F', 0, 0, 0, 0]);

            Catalog = StrategyCatalog.LoadFrom(plugins);
        }

        public string Root { get; }

        public StrategyCatalog Catalog { get; }

        public void Dispose()
        {
            try
            {
                Directory.Delete(Root, recursive: true);
            }
            catch (IOException)
            {
                // Loaded assemblies may keep their files locked on some platforms; the temp folder is then left behind.
            }
            catch (UnauthorizedAccessException)
            {
            }
        }
    }
}
