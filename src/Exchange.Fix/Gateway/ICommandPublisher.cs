using Exchange.Core.Commands;

namespace Exchange.Fix.Gateway;

/// <summary>Where the gateway hands decoded order commands; the host implements it over its inbound ring.</summary>
/// <remarks>
/// Called on connections' I/O tasks, many at once. The gateway fills every field except <see cref="Command.Sequence"/>,
/// which the host assigns (the ring/journal position). The host copies the command before returning.
/// </remarks>
public interface ICommandPublisher
{
    /// <summary>False only when the venue no longer takes commands (stopping); the gateway then rejects the order.</summary>
    bool TryPublish(in Command command);
}
