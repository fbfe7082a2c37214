using Exchange.Core.Commands;

namespace Exchange.Host.Venue;

/// <summary>One slot of the inbound ring: a command as the gateway decoded it, plus when the venue took it.</summary>
internal struct InboundSlot
{
    /// <summary>The command; <see cref="Command.Sequence"/> is its journal position, assigned at publication.</summary>
    public Command Command;

    /// <summary><see cref="System.Diagnostics.Stopwatch.GetTimestamp"/> when the command entered the ring (stage "received").</summary>
    public long ReceivedTimestamp;
}
