using Exchange.Core.Commands;
using Exchange.Core.Events;

namespace Exchange.Fix.Mapping;

/// <summary>
/// Turns a gateway-side business reject into the same <see cref="EngineEvent"/> shape the engine produces, so one
/// encoder path answers both: D → ExecutionReport (Rejected), F/G → OrderCancelReject (CancelRejected), H → an
/// ExecutionReport of Order Status (150=I) that names no order (OrdStatus 8, the reason in OrdRejReason), q → an
/// OrderMassCancelReport that cancelled nothing (531=0).
/// </summary>
public static class RejectEvents
{
    /// <param name="command">The partially mapped command (as left by the reader).</param>
    /// <param name="eventId">ExecID to use; the gateway's own sequence, distinct from the engine's event ids.</param>
    public static void FromCommand(in Command command, RejectReason reason, long eventId, out EngineEvent rejected)
    {
        rejected = EngineEvent.Refusal(in command, reason);
        rejected.EventId = eventId;
        if (command.Type == CommandType.StatusRequest)
        {
            rejected.Type = EventType.OrderStatus;
        }
        else if (command.Type == CommandType.MassCancel)
        {
            rejected.Type = EventType.MassCancelReport;
            rejected.AffectedOrders = 0;
        }
    }
}
