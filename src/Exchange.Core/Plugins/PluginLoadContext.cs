using System.Reflection;
using System.Runtime.Loader;
using Exchange.Core.Strategies;

namespace Exchange.Core.Plugins;

/// <summary>
/// The one load context that holds every strategy plugin of a plugins directory. Not collectible: strategies live as long
/// as the process, and the engine is closed over their types.
/// </summary>
/// <remarks>
/// Resolution of a plugin's references, in order:
/// <list type="number">
/// <item>Exchange.Core and anything the host already provides (the framework and the host's own dependencies, i.e. the
/// default context's trusted assemblies) come from the default context. This is what makes a plugin's
/// <see cref="IOrderList"/> the same type as the engine's; a plugin that shipped its own Exchange.Core would otherwise get
/// a second, incompatible copy of every contract.</item>
/// <item>An assembly this context already loaded.</item>
/// <item>Plugin-private dependencies, found through each plugin's <see cref="AssemblyDependencyResolver"/> (its
/// .deps.json when present), then by file name in the plugins directory.</item>
/// </list>
/// Only used at start-up; not thread-safe to populate from several threads.
/// </remarks>
internal sealed class PluginLoadContext : AssemblyLoadContext
{
    private static readonly string ContractAssemblyName = typeof(IOrderList).Assembly.GetName().Name!;
    private static readonly Lazy<HashSet<string>> HostAssemblyNames = new(ReadHostAssemblyNames);

    private readonly List<AssemblyDependencyResolver> _resolvers = [];
    private readonly Dictionary<string, string> _directoryAssemblies = new(StringComparer.OrdinalIgnoreCase);

    public PluginLoadContext(string directory)
        : base($"Exchange plugins ({directory})", isCollectible: false)
    {
    }

    /// <summary>True for Exchange.Core, the assembly that defines the strategy contracts.</summary>
    public static bool IsSharedContract(AssemblyName name) =>
        string.Equals(name.Name, ContractAssemblyName, StringComparison.OrdinalIgnoreCase);

    /// <summary>True for assemblies a plugin must get from the default context (see remarks).</summary>
    private static bool IsShared(AssemblyName name) =>
        IsSharedContract(name) || (name.Name is { } simple && HostAssemblyNames.Value.Contains(simple));

    /// <summary>Loads one plugin assembly from its path into this context (once per simple name).</summary>
    public Assembly LoadPlugin(string path, AssemblyName name)
    {
        _directoryAssemblies.TryAdd(name.Name!, path);
        _resolvers.Add(new AssemblyDependencyResolver(path));
        return FindLoaded(name) ?? LoadFromAssemblyPath(path);
    }

    protected override Assembly? Load(AssemblyName assemblyName)
    {
        if (IsShared(assemblyName))
        {
            return null;
        }

        if (FindLoaded(assemblyName) is { } loaded)
        {
            return loaded;
        }

        foreach (var resolver in _resolvers)
        {
            if (resolver.ResolveAssemblyToPath(assemblyName) is { } path)
            {
                return LoadFromAssemblyPath(path);
            }
        }

        return assemblyName.Name is { } simple && _directoryAssemblies.TryGetValue(simple, out var file)
            ? LoadFromAssemblyPath(file)
            : null;
    }

    protected override IntPtr LoadUnmanagedDll(string unmanagedDllName)
    {
        foreach (var resolver in _resolvers)
        {
            if (resolver.ResolveUnmanagedDllToPath(unmanagedDllName) is { } path)
            {
                return LoadUnmanagedDllFromPath(path);
            }
        }

        return IntPtr.Zero;
    }

    private Assembly? FindLoaded(AssemblyName name)
    {
        foreach (var assembly in Assemblies)
        {
            if (string.Equals(assembly.GetName().Name, name.Name, StringComparison.OrdinalIgnoreCase))
            {
                return assembly;
            }
        }

        return null;
    }

    /// <summary>Simple names of the assemblies the default context can load: its trusted platform list plus what it holds.</summary>
    private static HashSet<string> ReadHostAssemblyNames()
    {
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        if (AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES") is string trusted)
        {
            foreach (var path in trusted.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
            {
                names.Add(Path.GetFileNameWithoutExtension(path));
            }
        }

        foreach (var assembly in Default.Assemblies)
        {
            if (assembly.GetName().Name is { } simple)
            {
                names.Add(simple);
            }
        }

        return names;
    }
}
