using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Exchange.Host.Service;

/// <summary>
/// Tells systemd (Type=notify) when the venue is ready and when it begins to stop. Registered after the venue's own
/// hosted service, so READY=1 is sent only once the listener is open and the journal has been replayed.
/// </summary>
public sealed partial class SystemdLifetimeService(SystemdNotifier notifier, ILogger<SystemdLifetimeService> logger) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (notifier.Notify($"READY=1\nMAINPID={Environment.ProcessId}"))
        {
            LogNotified(logger, "READY=1");
        }

        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        notifier.Notify("STOPPING=1");
        return Task.CompletedTask;
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "systemd notified: {State}")]
    private static partial void LogNotified(ILogger logger, string state);
}
