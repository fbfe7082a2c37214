using Microsoft.Extensions.Configuration;

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

    /// <summary>The settings file to use: --config PATH, else appsettings.json in the working directory if present.</summary>
    public static string? FindSettingsFile(string[] args)
    {
        for (int i = 0; i < args.Length - 1; i++)
        {
            if (args[i] is "--config" or "-c")
            {
                return args[i + 1];
            }
        }

        return File.Exists("appsettings.json") ? "appsettings.json" : null;
    }

    /// <summary>Arguments with --config PATH removed, so the command-line provider does not see them.</summary>
    public static string[] WithoutConfigSwitch(string[] args)
    {
        var rest = new List<string>(args.Length);
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] is "--config" or "-c")
            {
                i++;
                continue;
            }

            rest.Add(args[i]);
        }

        return [.. rest];
    }

    /// <summary>Binds and validates; throws <see cref="VenueConfigurationException"/> listing every problem.</summary>
    public static VenueOptions Bind(IConfiguration configuration)
    {
        var options = new VenueOptions();
        try
        {
            // A misspelt key (Venue:Jornal:Fsync) must not silently leave a journal or fsync setting at its default.
            configuration.GetSection(VenueOptions.SectionName).Bind(options, binder => binder.ErrorOnUnknownConfiguration = true);
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
