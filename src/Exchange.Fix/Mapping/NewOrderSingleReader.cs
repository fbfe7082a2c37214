using System.Runtime.CompilerServices;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Maps a NewOrderSingle (35=D) to a <see cref="CommandType.NewOrder"/> command. No allocation.</summary>
/// <remarks>
/// PossResend (97) and PossDupFlag (43) are header fields; either one set to Y becomes
/// <see cref="Command.PossibleResend"/>. A client sets 97 when it resends an order it got no answer for, under a new
/// sequence number; a message with 43=Y reaches the application only when its sequence number was not processed yet
/// (the session drops the others), e.g. after a venue restart whose session store had not recorded it though the
/// journal had the order. Both say "this order may have arrived before", which is what the engine needs to know: FIX
/// 4.4 (Volume 4, Appendix D, "Poss resend and duplicate ClOrdID") answers a resend whose ClOrdID was already received
/// with the order's current status (ExecType I) instead of a duplicate reject, and a resend of an order never received
/// is entered as new. Without either flag a reused ClOrdID is a duplicate.
/// </remarks>
public static class NewOrderSingleReader
{
    /// <summary>
    /// Fills <paramref name="command"/> from <paramref name="message"/> (validate it against the dictionary first).
    /// On a business reject the command holds whatever was read (ClOrdID, side, quantity...) so the caller can echo
    /// it in the ExecutionReport (see <see cref="RejectEvents"/>); Sequence is left for the caller's ring.
    /// </summary>
    /// <param name="receiveTime">Gateway receive time, Unix nanoseconds; becomes <see cref="Command.Timestamp"/>.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult Read(FixMessage message, InstrumentDirectory instruments, int ownerId, long receiveTime, out Command command)
    {
        OrderFields.Begin(out command, CommandType.NewOrder, ownerId, receiveTime);
        command.PossibleResend = message.PossDupFlag || (message.ReadBool(FixTags.PossResend, out bool possResend) == FieldStatus.Ok && possResend);

        MappingResult result = OrderFields.ReadClOrdId(message, FixTags.ClOrdID, out command.ClOrdId);
        if (!result.IsOk)
        {
            return result;
        }

        result = OrderFields.ReadSide(message, out command.Side);
        if (result.Outcome == MappingOutcome.SessionReject)
        {
            return result;
        }

        MappingResult next = OrderFields.ReadQuantity(message, out command.Quantity);
        if (!next.IsOk)
        {
            return next;
        }

        next = OrderFields.ReadOrderType(message, out command.OrderType);
        if (!next.IsOk)
        {
            return next;
        }

        next = OrderFields.ReadTimeInForce(message, out command.TimeInForce);
        if (!next.IsOk)
        {
            return next;
        }

        next = OrderFields.ReadInstrument(message, instruments, ref command, out Instrument? instrument);
        if (!next.IsOk)
        {
            return next;
        }

        next = OrderFields.ReadPrice(message, command.OrderType, instrument!, out command.Price);
        if (!next.IsOk)
        {
            return next;
        }

        next = OrderFields.RefuseUnsupportedInstructions(message);
        return next.IsOk ? result : next;
    }
}
