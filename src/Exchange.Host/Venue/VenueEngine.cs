using System.Diagnostics.CodeAnalysis;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Plugins;
using Exchange.Core.Strategies;
using Exchange.Host.Configuration;

namespace Exchange.Host.Venue;

/// <summary>The matching engine and market-data store the venue runs, closed over the configured strategies.</summary>
/// <param name="Engine">The engine (not yet fed any command).</param>
/// <param name="Store">The market-data store, initialised for every instrument.</param>
/// <param name="Description">"order list X, level index Y, market data Z" for the start-up log line.</param>
internal sealed record VenueEngine(IMatchingEngine Engine, IMarketDataStore Store, string Description)
{
    /// <summary>
    /// Builds another engine closed over the same strategy types (a few order slots), for the start-up warm-up; the
    /// same types mean the same compiled code. Null when the engine came from elsewhere (tests): no warm-up then.
    /// </summary>
    public Func<IReadOnlyList<Instrument>, IMatchingEngine>? CreateScratchEngine { get; init; }

    /// <summary>
    /// Loads the strategy plugins and builds the engine and store by name. Unknown names fail with a
    /// <see cref="VenueConfigurationException"/> naming each bad key and the names the plugins provide.
    /// </summary>
    [RequiresDynamicCode("Closes the engine over strategy types at run time.")]
    [RequiresUnreferencedCode("Loads strategy plugins by reflection.")]
    public static VenueEngine FromPlugins(VenueOptions options, IReadOnlyList<Instrument> instruments)
    {
        StrategyOptions names = options.Strategies;
        string directory = Path.Combine(AppContext.BaseDirectory, names.PluginDirectory);
        StrategyCatalog catalog;
        try
        {
            catalog = StrategyCatalog.LoadFrom(directory);
        }
        catch (DirectoryNotFoundException exception)
        {
            throw new VenueConfigurationException([$"{VenueOptions.SectionName}:Strategies:PluginDirectory: {exception.Message}"]);
        }

        var errors = new List<string>();
        Type? orderList = Lookup(errors, "OrderList", () => catalog.GetOrderList(names.OrderList));
        Type? levelIndex = Lookup(errors, "LevelIndex", () => catalog.GetLevelIndex(names.LevelIndex));
        IMarketDataStore? store = Lookup(errors, "MarketData", () => catalog.CreateMarketDataStore(names.MarketData));
        if (orderList is null || levelIndex is null || store is null)
        {
            throw new VenueConfigurationException(errors);
        }

        var engineOptions = new EngineOptions
        {
            InitialOrderCapacity = options.Pipeline.InitialOrderCapacity,
            MaxClOrdIdsPerDay = options.Pipeline.MaxClOrdIdsPerDay,
        };
        IMatchingEngine engine = MatchingEngineFactory.Create(orderList, levelIndex, instruments, engineOptions);
        store.Initialize(instruments.Count);
        return new VenueEngine(engine, store, $"order list {names.OrderList}, level index {names.LevelIndex}, market data {names.MarketData}")
        {
            CreateScratchEngine = scratch => MatchingEngineFactory.Create(orderList, levelIndex, scratch, new EngineOptions { InitialOrderCapacity = 1024, MaxClOrdIdsPerDay = 1024 }),
        };
    }

    private static T? Lookup<T>(List<string> errors, string key, Func<T> lookup)
        where T : class
    {
        try
        {
            return lookup();
        }
        catch (KeyNotFoundException exception)
        {
            errors.Add($"{VenueOptions.SectionName}:Strategies:{key}: {exception.Message}");
            return null;
        }
    }
}
