using Exchange.Core.Commands;
using Exchange.Core.Events;

namespace Exchange.Fix.Mapping;

/// <summary>
/// Turns a gateway-side business reject into the same <see cref="EngineEvent"/> shape the engine produces, so one
/// encoder path answers both: D → ExecutionReport (Rejected), F/G → OrderCancelReject (CancelRejected).
/// </summary>
public static class RejectEvents
{
    /// <param name="command">The partially mapped command (as left by the reader).</param>
    /// <param name="eventId">ExecID to use; the gateway's own sequence, distinct from the engine's event ids.</param>
    public static void FromCommand(in Command command, RejectReason reason, long eventId, out EngineEvent rejected)
    {
        rejected = default;
        rejected.Type = command.Type == CommandType.NewOrder ? EventType.Rejected : EventType.CancelRejected;
        rejected.SourceCommand = command.Type;
        rejected.RejectReason = reason;
        rejected.Side = command.Side;
        rejected.OrderType = command.OrderType;
        rejected.TimeInForce = command.TimeInForce;
        rejected.InstrumentId = command.InstrumentId;
        rejected.OwnerId = command.OwnerId;
        rejected.Price = command.Price;
        rejected.OrderQuantity = command.Quantity;
        rejected.EventId = eventId;
        rejected.Timestamp = command.Timestamp;
        rejected.CommandSequence = command.Sequence;
        rejected.ClOrdId = command.ClOrdId;
        rejected.OrigClOrdId = command.OrigClOrdId;
    }
}
