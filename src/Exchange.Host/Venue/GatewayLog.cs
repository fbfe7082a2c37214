using Exchange.Fix.Gateway;
using Microsoft.Extensions.Logging;

namespace Exchange.Host.Venue;

/// <summary>Adapts the gateway's logging callback (Exchange.Fix has no logging framework) to the host's logger.</summary>
internal sealed partial class GatewayLog(ILogger logger) : IGatewayLog
{
    public void Info(string message) => LogInfo(logger, message);

    public void Warn(string message) => LogWarning(logger, message);

    [LoggerMessage(Level = LogLevel.Information, Message = "{Message}")]
    private static partial void LogInfo(ILogger logger, string message);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Message}")]
    private static partial void LogWarning(ILogger logger, string message);
}
