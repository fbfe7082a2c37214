using Exchange.Core.Events;
using Exchange.Fix.Gateway;

namespace Exchange.Host.Venue;

/// <summary>One slot of the outbound ring: an engine event and the stage times of the command that caused it.</summary>
internal struct OutboundSlot
{
    public EngineEvent Event;

    /// <summary>Received and Matched are set by the matcher; the sender adds Journaled and Sent.</summary>
    public StageTimes Times;
}
