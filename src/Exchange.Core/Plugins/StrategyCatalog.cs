using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using Exchange.Core.Strategies;

namespace Exchange.Core.Plugins;

/// <summary>
/// Maps configured strategy names to strategy types, per family: order lists (<see cref="IOrderList"/> structs), price-level
/// indexes (<see cref="IPriceLevelIndex"/> structs) and market-data stores (<see cref="IMarketDataStore"/> classes with a
/// public parameterless constructor).
/// </summary>
/// <remarks>
/// A strategy's configuration name is its type's short name without the family suffix ("OrderList", "LevelIndex",
/// "MarketDataStore"): IntrusiveListOrderList is "IntrusiveList", SeqLockMarketDataStore is "SeqLock". Names match
/// case-insensitively. Build the catalog once at start-up, with <see cref="LoadFrom"/> (plugin assemblies in a directory)
/// or <see cref="FromTypes"/> (strategies compiled in: NativeAOT builds, tests, benchmarks); it is immutable afterwards
/// and safe to share. Errors are start-up configuration errors and throw with a message that says what to fix.
/// </remarks>
public sealed class StrategyCatalog
{
    private readonly Dictionary<StrategyFamily, Dictionary<string, Type>> _byFamily;
    private readonly Dictionary<StrategyFamily, string[]> _names;

    private StrategyCatalog(Dictionary<StrategyFamily, Dictionary<string, Type>> byFamily)
    {
        _byFamily = byFamily;
        _names = byFamily.ToDictionary(
            pair => pair.Key,
            pair => pair.Value.Keys.Order(StringComparer.OrdinalIgnoreCase).ToArray());
    }

    /// <summary>Configuration names of the order-list strategies, sorted.</summary>
    public IReadOnlyList<string> OrderListNames => _names[StrategyFamily.OrderList];

    /// <summary>Configuration names of the price-level index strategies, sorted.</summary>
    public IReadOnlyList<string> LevelIndexNames => _names[StrategyFamily.LevelIndex];

    /// <summary>Configuration names of the market-data store strategies, sorted.</summary>
    public IReadOnlyList<string> MarketDataStoreNames => _names[StrategyFamily.MarketDataStore];

    /// <summary>
    /// Loads every *.dll of <paramref name="directory"/> into one plugin load context that shares Exchange.Core (and the
    /// framework) with the host, and catalogs the public strategy types they define. Files that are not .NET assemblies
    /// are skipped; a public type that implements a strategy contract but breaks the family's rules is an error.
    /// </summary>
    /// <exception cref="DirectoryNotFoundException">The directory does not exist.</exception>
    /// <exception cref="InvalidOperationException">A plugin cannot be read, breaks a rule, or two strategies share a name.</exception>
    [RequiresUnreferencedCode("Loads plugin assemblies and reflects over their types.")]
    public static StrategyCatalog LoadFrom(string directory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        var fullPath = Path.GetFullPath(directory);
        if (!Directory.Exists(fullPath))
        {
            throw new DirectoryNotFoundException($"Strategy plugin directory '{fullPath}' does not exist.");
        }

        var context = new PluginLoadContext(fullPath);
        var builder = new Builder();
        foreach (var file in Directory.GetFiles(fullPath, "*.dll").Order(StringComparer.Ordinal))
        {
            AssemblyName name;
            try
            {
                name = AssemblyName.GetAssemblyName(file);
            }
            catch (BadImageFormatException)
            {
                continue; // a native library a plugin depends on, not a .NET assembly
            }

            if (PluginLoadContext.IsSharedContract(name))
            {
                continue; // a copy of Exchange.Core: the host's copy is the one the contracts come from
            }

            var assembly = context.LoadPlugin(file, name);
            foreach (var type in ExportedTypes(assembly, file))
            {
                builder.AddDiscovered(type, file);
            }
        }

        return builder.Build();
    }

    /// <summary>
    /// Catalogs the given strategy types, for builds that compile strategies in. Every type must be a valid member of
    /// exactly the families whose contracts it implements, and implement at least one.
    /// </summary>
    /// <exception cref="ArgumentException">A type is not a valid strategy, or two share a name in one family.</exception>
    public static StrategyCatalog FromTypes(IEnumerable<Type> types)
    {
        ArgumentNullException.ThrowIfNull(types);
        var builder = new Builder();
        foreach (var type in types)
        {
            ArgumentNullException.ThrowIfNull(type, nameof(types));
            builder.AddExplicit(type);
        }

        return builder.Build();
    }

    /// <summary>The order-list struct configured as <paramref name="name"/>.</summary>
    /// <exception cref="KeyNotFoundException">No such name; the message lists the names that exist.</exception>
    public Type GetOrderList(string name) => Get(StrategyFamily.OrderList, name);

    /// <summary>The price-level index struct configured as <paramref name="name"/>.</summary>
    /// <exception cref="KeyNotFoundException">No such name; the message lists the names that exist.</exception>
    public Type GetLevelIndex(string name) => Get(StrategyFamily.LevelIndex, name);

    /// <summary>The market-data store class configured as <paramref name="name"/>.</summary>
    /// <exception cref="KeyNotFoundException">No such name; the message lists the names that exist.</exception>
    public Type GetMarketDataStore(string name) => Get(StrategyFamily.MarketDataStore, name);

    /// <summary>A new, uninitialized instance of the market-data store configured as <paramref name="name"/>.</summary>
    /// <exception cref="KeyNotFoundException">No such name; the message lists the names that exist.</exception>
    public IMarketDataStore CreateMarketDataStore(string name) =>
        (IMarketDataStore)Activator.CreateInstance(GetMarketDataStore(name))!;

    private Type Get(StrategyFamily family, string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (_byFamily[family].TryGetValue(name, out var type))
        {
            return type;
        }

        var available = _names[family];
        throw new KeyNotFoundException(
            $"Unknown {family.DisplayName} strategy '{name}'. Available: "
            + (available.Length == 0 ? "none" : string.Join(", ", available)) + ".");
    }

    [RequiresUnreferencedCode("Reflects over plugin types.")]
    private static Type[] ExportedTypes(Assembly assembly, string file)
    {
        try
        {
            return assembly.GetExportedTypes();
        }
        catch (Exception e) when (e is ReflectionTypeLoadException or TypeLoadException or FileNotFoundException
                                      or FileLoadException or BadImageFormatException)
        {
            throw new InvalidOperationException(
                $"Strategy plugin '{file}' could not be read: {e.Message} (is it built against this Exchange.Core?)", e);
        }
    }

    /// <summary>Collects types per family and rejects rule breaks and duplicate names.</summary>
    private sealed class Builder
    {
        private readonly Dictionary<StrategyFamily, Dictionary<string, Type>> _byFamily =
            StrategyFamily.All.ToDictionary(f => f, _ => new Dictionary<string, Type>(StringComparer.OrdinalIgnoreCase));

        /// <summary>A type found in a plugin: abstract classes and open generics are building blocks, not strategies.</summary>
        public void AddDiscovered(Type type, string file)
        {
            if (type.IsAbstract || type.IsInterface || type.ContainsGenericParameters)
            {
                return;
            }

            foreach (var family in StrategyFamily.All)
            {
                if (!family.IsImplementedBy(type))
                {
                    continue;
                }

                if (family.FindProblem(type) is { } problem)
                {
                    throw new InvalidOperationException($"{problem} (in plugin '{file}')");
                }

                Add(family, type, message => new InvalidOperationException(message));
            }
        }

        public void AddExplicit(Type type)
        {
            var any = false;
            foreach (var family in StrategyFamily.All)
            {
                if (!family.IsImplementedBy(type))
                {
                    continue;
                }

                any = true;
                family.EnsureValid(type, "types");
                Add(family, type, message => new ArgumentException(message, "types"));
            }

            if (!any)
            {
                throw new ArgumentException(
                    $"{type.FullName} is not a strategy: it implements none of "
                    + string.Join(", ", StrategyFamily.All.Select(f => f.Contract.Name)) + ".",
                    "types");
            }
        }

        public StrategyCatalog Build() => new(_byFamily);

        private void Add(StrategyFamily family, Type type, Func<string, Exception> error)
        {
            var name = family.ConfigName(type);
            if (!_byFamily[family].TryAdd(name, type) && _byFamily[family][name] != type)
            {
                throw error(
                    $"Two {family.DisplayName} strategies are named '{name}': "
                    + $"{_byFamily[family][name].AssemblyQualifiedName} and {type.AssemblyQualifiedName}.");
            }
        }
    }
}
