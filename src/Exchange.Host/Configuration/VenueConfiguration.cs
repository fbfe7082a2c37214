using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Configuration.EnvironmentVariables;

namespace Exchange.Host.Configuration;

/// <summary>
/// Where configuration comes from. The embedded defaults (venue.defaults.json in this assembly) are used when no
/// settings file is given; a settings file replaces them whole rather than merging, because configuration lists
/// (sessions, instruments) merge by index and a two-session file would silently inherit a third default session.
/// Environment variables (EXCHANGE_Venue__Listen__Port=9000) and the command line (--Venue:Listen:Port=9000) override
/// single keys on top of either.
/// </summary>
public static class VenueConfiguration
{
    public const string DefaultsResource = "Exchange.Host.venue.defaults.json";

    /// <summary>Adds the venue's sources to a builder. <paramref name="settingsFile"/> comes from --config or appsettings.json.</summary>
    public static void AddVenueSources(IConfigurationBuilder builder, string? settingsFile, string[] args)
    {
        if (settingsFile is not null)
        {
            builder.AddJsonFile(Path.GetFullPath(settingsFile), optional: false, reloadOnChange: false);
        }
        else
        {
            Stream defaults = typeof(VenueConfiguration).Assembly.GetManifestResourceStream(DefaultsResource)
                ?? throw new InvalidOperationException($"Embedded resource {DefaultsResource} is missing from the build.");
            builder.AddJsonStream(defaults);
        }

        builder.AddEnvironmentVariables("EXCHANGE_");
        builder.AddCommandLine(args);
    }

    /// <summary>
    /// The settings file to use: --config PATH (also -c PATH, --config=PATH), else appsettings.json in the working
    /// directory if present. A switch without a path throws <see cref="VenueConfigurationException"/>: passed on, the
    /// command-line provider would take it for an unused key and the venue would start on the wrong settings.
    /// </summary>
    public static string? FindSettingsFile(string[] args)
    {
        string? path = null;
        for (int i = 0; i < args.Length; i++)
        {
            int used = ConfigSwitchAt(args, i, out string? value);
            if (used > 0)
            {
                path = value;
                i += used - 1;
            }
        }

        return path ?? (File.Exists("appsettings.json") ? "appsettings.json" : null);
    }

    /// <summary>Arguments with every --config switch and its path removed, so the command-line provider does not see them.</summary>
    public static string[] WithoutConfigSwitch(string[] args)
    {
        var rest = new List<string>(args.Length);
        for (int i = 0; i < args.Length; i++)
        {
            int used = ConfigSwitchAt(args, i, out _);
            if (used > 0)
            {
                i += used - 1;
                continue;
            }

            rest.Add(args[i]);
        }

        return [.. rest];
    }

    /// <summary>How many arguments the config switch at <paramref name="i"/> takes (0: none there), and its path.</summary>
    private static int ConfigSwitchAt(string[] args, int i, out string? path)
    {
        path = null;
        string arg = args[i];
        int used;
        if (arg is "--config" or "-c")
        {
            path = i + 1 < args.Length ? args[i + 1] : null;
            used = 2;
        }
        else if (arg.StartsWith("--config=", StringComparison.Ordinal))
        {
            path = arg["--config=".Length..];
            used = 1;
        }
        else
        {
            return 0;
        }

        if (string.IsNullOrWhiteSpace(path))
        {
            throw new VenueConfigurationException([$"{arg}: give the settings file's path (--config PATH or --config=PATH)"]);
        }

        return used;
    }

    /// <summary>The host's own timeouts, in whole seconds (HostOptions reads them).</summary>
    private static readonly string[] HostTimeoutKeys = ["shutdownTimeoutSeconds", "startupTimeoutSeconds"];

    /// <summary>
    /// Top-level keys the venue or its host reads: a misspelt section (--Venu:Pipeline:MatcherWait=BusySpin) would
    /// otherwise be ignored and the venue start on its defaults.
    /// </summary>
    private static readonly string[] TopLevelKeys =
        [VenueOptions.SectionName, "Logging", .. HostTimeoutKeys, "environment", "applicationName", "contentRoot"];

    /// <remarks>
    /// Only the settings file's and the command line's keys: environment variables share the EXCHANGE_ prefix with
    /// other tools' (the benchmarks' EXCHANGE_BENCH_BOOKS, say), which a shell may still have set.
    /// </remarks>
    private static void RefuseUnknownSections(IConfiguration configuration)
    {
        if (configuration is not IConfigurationRoot root)
        {
            return;
        }

        List<string> errors = [];
        foreach (IConfigurationProvider provider in root.Providers)
        {
            if (provider is EnvironmentVariablesConfigurationProvider)
            {
                continue;
            }

            foreach (string key in provider.GetChildKeys([], parentPath: null).Distinct(StringComparer.OrdinalIgnoreCase))
            {
                if (!TopLevelKeys.Contains(key, StringComparer.OrdinalIgnoreCase))
                {
                    errors.Add($"{key}: not a setting of the venue; top-level keys are {string.Join(", ", TopLevelKeys)}.");
                }
            }
        }

        if (errors.Count > 0)
        {
            throw new VenueConfigurationException(errors);
        }
    }

    /// <summary>
    /// The host's own timeouts, which the host reads without a word when it cannot parse them (the default then
    /// applies): shutdownTimeoutSeconds sets the stop's budget, which README tells operators to raise with TimeoutStopSec.
    /// </summary>
    private static void CheckHostTimeouts(IConfiguration configuration)
    {
        var errors = new List<string>();
        foreach (string key in HostTimeoutKeys)
        {
            if (configuration[key] is { } text &&
                (!int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int seconds) || seconds < 1))
            {
                errors.Add($"{key}: '{text}' is not allowed: give whole seconds, 1 or more.");
            }
        }

        if (errors.Count > 0)
        {
            throw new VenueConfigurationException(errors);
        }
    }

    /// <summary>Binds and validates; throws <see cref="VenueConfigurationException"/> listing every problem.</summary>
    public static VenueOptions Bind(IConfiguration configuration)
    {
        RefuseUnknownSections(configuration);
        CheckHostTimeouts(configuration);
        IConfigurationSection venue = configuration.GetSection(VenueOptions.SectionName);
        List<string> shapeErrors = ConfigurationShape.Check(venue, typeof(VenueOptions));
        if (shapeErrors.Count > 0)
        {
            throw new VenueConfigurationException(shapeErrors);
        }

        var options = new VenueOptions();
        try
        {
            // A misspelt key (Venue:Jornal:Fsync) must not silently leave a journal or fsync setting at its default.
            venue.Bind(options, binder => binder.ErrorOnUnknownConfiguration = true);
        }
        catch (InvalidOperationException exception)
        {
            throw new VenueConfigurationException([$"{VenueOptions.SectionName}: {exception.Message}"]);
        }

        IReadOnlyList<string> errors = VenueOptionsValidator.Validate(options);
        if (errors.Count > 0)
        {
            throw new VenueConfigurationException(errors);
        }

        return options;
    }
}
