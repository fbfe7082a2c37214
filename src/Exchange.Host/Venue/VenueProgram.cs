using Exchange.Fix.Session;
using Exchange.Host.Configuration;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using IMeterFactory = System.Diagnostics.Metrics.IMeterFactory;

namespace Exchange.Host.Venue;

/// <summary>
/// The venue process: configuration (embedded defaults or --config / appsettings.json, EXCHANGE_ environment variables,
/// command line), validation, the Generic Host with the venue service and the service-manager integrations.
/// </summary>
/// <remarks>
/// Exit codes: 0 after a requested stop; 2 for invalid configuration (bad keys, unknown strategy names), printed to
/// standard error one problem per line, or a journal written with other instruments or sessions; 1 for any other
/// start-up failure (e.g. a corrupt journal, whose message names the file and offset) or a requested stop that failed;
/// 3 when a pipeline thread failed and stopped the venue while it ran (the stop is still graceful: journal flushed,
/// sessions logged out).
/// </remarks>
internal static class VenueProgram
{
    /// <summary>The Windows service name the README's install commands use.</summary>
    public const string WindowsServiceName = "ExchangeVenue";

    public const int ExitConfigurationError = 2;
    public const int ExitStartFailure = 1;
    public const int ExitFaulted = 3;

    public static async Task<int> RunAsync(string[] args)
    {
        IHost host;
        try
        {
            host = Build(args);
        }
        catch (VenueConfigurationException exception)
        {
            await Console.Error.WriteLineAsync(exception.Message).ConfigureAwait(false);
            return ExitConfigurationError;
        }

        return await RunHostAsync(host, Console.Error).ConfigureAwait(false);
    }

    /// <summary>Runs a built host until it stops and returns the process's exit code; failures are written to <paramref name="error"/>.</summary>
    internal static async Task<int> RunHostAsync(IHost host, TextWriter error)
    {
        // Resolved before the run: RunAsync disposes the host when it returns or throws.
        VenueService venue = host.Services.GetRequiredService<VenueService>();
        IHostApplicationLifetime lifetime = host.Services.GetRequiredService<IHostApplicationLifetime>();
        try
        {
            await host.RunAsync().ConfigureAwait(false);
            if (venue.Fault is { } fault)
            {
                await error.WriteLineAsync($"Exchange venue stopped after a fault: {fault.GetType().Name}: {fault.Message} (the log has the details)").ConfigureAwait(false);
                return ExitFaulted;
            }

            return 0;
        }
        catch (OperationCanceledException) when (!venue.Started && venue.Fault is null && lifetime.ApplicationStopping.IsCancellationRequested)
        {
            // A stop requested before the start completed (the venue cut its start short, nothing was accepted yet).
            return 0;
        }
        catch (OperationCanceledException) when (!venue.Started && venue.Fault is null)
        {
            // Cancelled with no stop requested: the host's StartupTimeout ran out (the journal replay counts in it).
            await error.WriteLineAsync(
                "Exchange venue failed to start: it had not finished starting when the host's StartupTimeout (startupTimeoutSeconds) ran out; "
                + "the journal replay is part of the start, so leave the timeout unset or allow for the journal's size").ConfigureAwait(false);
            return ExitStartFailure;
        }
        catch (Exception exception) when (Find<VenueConfigurationException>(exception) is { } configuration)
        {
            await error.WriteLineAsync(configuration.Message).ConfigureAwait(false);
            return ExitConfigurationError;
        }
        catch (Exception exception) when (Find<Journal.JournalRefusedException>(exception) is { } refused)
        {
            // The message says what was found and what to do; a stack trace would only bury it.
            await error.WriteLineAsync($"Exchange venue refused to start: {refused.Message}").ConfigureAwait(false);
            return refused.Reason == Journal.JournalRefusal.Configuration ? ExitConfigurationError : ExitStartFailure;
        }
        catch (Exception exception) when (venue.Fault is null && venue.Started)
        {
            // The venue ran and was asked to stop; the stop itself failed (an I/O error at the journal's final sync, a
            // hosted service's stop). Not a start failure, which would send the operator to the configuration.
            await error.WriteLineAsync($"Exchange venue stopped, but the stop failed: {exception.GetType().Name}: {exception.Message} (the log has the details)").ConfigureAwait(false);
            return ExitStartFailure;
        }
        catch (Exception exception) when (venue.Fault is null && Find<Network.ListenFailedException>(exception) is { } listen)
        {
            await error.WriteLineAsync($"Exchange venue failed to start: {listen.Message}").ConfigureAwait(false);
            return ExitStartFailure;
        }
        catch (Exception exception) when (venue.Fault is null && FindFileAccessFailure(exception) is { } files)
        {
            // A journal or session-store path that cannot be created or written: the message names the path, which is
            // what the operator fixes; a stack trace would only bury it.
            await error.WriteLineAsync($"Exchange venue failed to start: {files.GetType().Name}: {files.Message}").ConfigureAwait(false);
            return ExitStartFailure;
        }
#pragma warning disable CA1031 // The process boundary: report any start-up failure as a message and an exit code.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            if (venue.Fault is { } fault)
            {
                // The stop after a fault failed too (e.g. the journal's final sync after its thread's I/O error): the
                // fault is the cause, and the venue had started.
                await error.WriteLineAsync($"Exchange venue stopped after a fault: {fault.GetType().Name}: {fault.Message}; stopping then failed: {exception.GetType().Name}: {exception.Message} (the log has the details)").ConfigureAwait(false);
                return ExitFaulted;
            }

            await error.WriteLineAsync($"Exchange venue failed to start: {exception}").ConfigureAwait(false);
            return ExitStartFailure;
        }
    }

    /// <summary>Builds the host; throws <see cref="VenueConfigurationException"/> for invalid configuration.</summary>
    /// <param name="args">The process arguments.</param>
    /// <param name="configureServices">Replaces services after the defaults (tests).</param>
    public static IHost Build(string[] args, Action<IServiceCollection>? configureServices = null)
    {
        string? settingsFile = VenueConfiguration.FindSettingsFile(args);
        string[] configurationArgs = VenueConfiguration.WithoutConfigSwitch(args);

        HostApplicationBuilder builder;
        try
        {
            builder = Microsoft.Extensions.Hosting.Host.CreateApplicationBuilder(configurationArgs);

            // The defaults read appsettings.json and DOTNET_ variables themselves; the venue's sources replace them so a
            // settings file is read once and replaces the embedded defaults whole (see VenueConfiguration).
            IConfigurationBuilder configuration = builder.Configuration;
            configuration.Sources.Clear();
            VenueConfiguration.AddVenueSources(configuration, settingsFile, configurationArgs);
        }
        catch (FormatException exception)
        {
            // The command-line provider's: an argument it cannot read as a key (-Venue:X=1, with one dash).
            throw new VenueConfigurationException([$"command line: {exception.Message} Give settings as --Section:Key=value."]);
        }
        catch (Exception exception) when (exception is IOException or InvalidDataException or UnauthorizedAccessException)
        {
            // The settings file missing, unreadable, or not JSON (FileNotFoundException is an IOException).
            throw new VenueConfigurationException([$"settings file {Path.GetFullPath(settingsFile ?? ".")}: {exception.Message}"]);
        }

        VenueOptions options = VenueConfiguration.Bind(builder.Configuration);

        builder.Logging.ClearProviders();

        // A failed start is reported once, by RunAsync on standard error (a configuration error without a stack trace).
        builder.Logging.AddFilter("Microsoft.Extensions.Hosting.Internal.Host", LogLevel.None);
        builder.Logging.AddSimpleConsole(console =>
        {
            console.SingleLine = true;
            console.UseUtcTimestamp = true;
            console.TimestampFormat = "HH:mm:ss.fff ";
        });

        // Each does nothing unless the process was started by its service manager (the parent is systemd; the parent is
        // the Windows service control manager), so the same binary runs from a shell, under systemd (Type=notify:
        // READY=1 once every hosted service has started, STOPPING=1 when a stop begins, journald log levels) and as a
        // Windows service (Stop and Shutdown become the host's graceful stop).
        builder.Services.AddSystemd();
        builder.Services.AddWindowsService(service => service.ServiceName = WindowsServiceName);

        IServiceCollection services = builder.Services;
        services.AddSingleton(options);
        services.AddSingleton<VenueEndpoint>();
        services.AddSingleton<IClock>(SystemClock.Instance);
        services.AddSingleton<IGatewayFactory>(provider => new FixGatewayFactory(provider.GetRequiredService<ILoggerFactory>(), provider.GetRequiredService<IClock>()));
        services.AddSingleton(provider => new VenueService(
            provider.GetRequiredService<VenueOptions>(),
            provider.GetRequiredService<IGatewayFactory>(),
            provider.GetRequiredService<VenueEndpoint>(),
            provider.GetRequiredService<ILoggerFactory>(),
            provider.GetRequiredService<IHostApplicationLifetime>(),
            provider.GetService<IMeterFactory>(),
            clock: provider.GetRequiredService<IClock>())
        {
            StopBudget = VenueService.StopBudgetFor(provider.GetRequiredService<IOptions<HostOptions>>().Value.ShutdownTimeout),
        });

        // The systemd lifetime sends READY=1 when the host has started every hosted service: the venue's StartAsync
        // returns only once the journal is replayed and the listener is open.
        services.AddHostedService(provider => provider.GetRequiredService<VenueService>());
        configureServices?.Invoke(services);
        return builder.Build();
    }

    private static Exception? FindFileAccessFailure(Exception exception) =>
        (Exception?)Find<UnauthorizedAccessException>(exception) ?? Find<IOException>(exception);

    private static T? Find<T>(Exception exception)
        where T : Exception
    {
        for (Exception? current = exception; current is not null; current = current.InnerException)
        {
            if (current is T match)
            {
                return match;
            }

            if (current is AggregateException aggregate && aggregate.InnerExceptions.Count == 1)
            {
                return Find<T>(aggregate.InnerExceptions[0]);
            }
        }

        return null;
    }
}
