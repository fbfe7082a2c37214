using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using Exchange.Core.Events;

namespace Exchange.Fix.Mapping;

/// <summary>FIX codes derived from an engine event, shared by the ExecutionReport and OrderCancelReject encoders.</summary>
internal static class OrderStates
{
    /// <summary>
    /// OrdStatus (39) from the order's quantities: FIX 4.4 reports the order's state, so after a replace it is
    /// 0/1/2 (not 5), and an Order Status report is the state it describes. A reject is 8 unless it names an existing
    /// order (a duplicate of a live order's ClOrdID): then it reports that order's state, so the client does not take
    /// the reject for the live order's end (FIX 4.4 Appendix D, "Poss resend and duplicate ClOrdID"). An Order Status
    /// report that names no order (a status request for an unknown order) is 8 as well, as Appendix D answers one; one
    /// of an order that has ended says how, as a cancel does, and so does a reject that names an ended order (a
    /// duplicate of its ClOrdID; a reject naming a live order always has leaves). A cancel is 4 unless the order had completely filled; a Day order the new trading day expired is C (Expired), filled in part
    /// or not at all.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static byte OrdStatus(in EngineEvent e)
    {
        if (e.Type is EventType.Rejected or EventType.OrderStatus && e.OrderId == 0)
        {
            return (byte)'8';
        }

        bool filled = e.CumulativeQuantity > 0 && e.CumulativeQuantity >= e.OrderQuantity;
        if (e.Type == EventType.Cancelled || (e.Type is EventType.OrderStatus or EventType.Rejected && e.LeavesQuantity == 0))
        {
            return e.CancelReason == CancelReason.Expired ? (byte)'C' : filled ? (byte)'2' : (byte)'4';
        }

        return filled ? (byte)'2' : e.CumulativeQuantity > 0 ? (byte)'1' : (byte)'0';
    }

    /// <summary>ExecType (150) for events reported in an ExecutionReport: a table load indexed by event type (Accepted 1
    /// through OrderStatus 7), so the encoder inlines it. CancelRejected (an OrderCancelReject, no ExecType) and any
    /// other type are a caller bug and throw. An expiry is a Cancelled event told apart only by its reason, and FIX
    /// reports it as C (Expired), not 4.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static byte ExecType(in EngineEvent e)
    {
        ReadOnlySpan<byte> codes = "08F45\0I"u8;
        uint index = (uint)e.Type - (uint)EventType.Accepted;
        if (index >= (uint)codes.Length || codes[(int)index] == 0)
        {
            ThrowNotExecutionReport(e.Type);
        }

        return e.CancelReason == CancelReason.Expired && e.Type == EventType.Cancelled ? (byte)'C' : codes[(int)index];
    }

    [DoesNotReturn]
    private static void ThrowNotExecutionReport(EventType type) =>
        throw new ArgumentOutOfRangeException(nameof(type), type, "Not an ExecutionReport event; CancelRejected goes to OrderCancelRejectEncoder.");

    /// <summary>OrdRejReason (103).</summary>
    public static int OrdRejReason(RejectReason reason) => reason switch
    {
        RejectReason.UnknownInstrument => 1,
        RejectReason.UnknownOrder => 5,
        RejectReason.DuplicateClOrdId => 6,
        RejectReason.QuantityNotPositive or RejectReason.QuantityOffLot or RejectReason.QuantityTooLarge => 13,
        RejectReason.InvalidSide or RejectReason.InvalidOrderType or RejectReason.InvalidTimeInForce or RejectReason.UnsupportedOrderInstruction => 11,
        _ => 99,
    };

    /// <summary>
    /// OrdStatus (39) of an OrderCancelReject: 8 when no order is named; for an order that has ended (no leaves, see
    /// <see cref="RejectReason.TooLateToCancel"/>) how it ended: 2 filled (a replace down to its fills included), C
    /// expired, 4 cancelled (partly filled or not, as FIX reports a cancelled order); else the live order's state.
    /// </summary>
    public static byte CancelRejectOrdStatus(in EngineEvent e)
    {
        if (e.OrderId <= 0)
        {
            return (byte)'8';
        }

        if (e.LeavesQuantity == 0)
        {
            return e.CancelReason switch
            {
                CancelReason.None or CancelReason.ReplacedToFilled => (byte)'2',
                CancelReason.Expired => (byte)'C',
                _ => (byte)'4',
            };
        }

        return OrdStatus(e);
    }

    /// <summary>CxlRejReason (102): 0 too late to cancel, 1 unknown order, 6 duplicate ClOrdID, 99 other.</summary>
    public static int CxlRejReason(RejectReason reason) => reason switch
    {
        RejectReason.TooLateToCancel => 0,
        RejectReason.UnknownOrder => 1,
        RejectReason.DuplicateClOrdId => 6,
        _ => 99,
    };
}
