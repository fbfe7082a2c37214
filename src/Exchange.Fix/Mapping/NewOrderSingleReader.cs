using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Maps a NewOrderSingle (35=D) to a <see cref="CommandType.NewOrder"/> command. No allocation.</summary>
/// <remarks>
/// PossResend (97) is a header field: the dictionary accepts it on D, and it is deliberately not read. A client sets it
/// when resending an order it got no answer for; the engine rejects any ClOrdID the owner already used today as a
/// duplicate (OrdRejReason 6), flag or not, so a resent order is never entered twice, and a resend of an order that
/// never arrived is entered normally, as FIX asks. The other answer venues give, re-sending the original's current
/// status, was not chosen: the engine keeps only the ids of orders that are done, not their state, so it could not
/// answer for an order already filled or cancelled, and the reject is the same answer in every case. The client
/// learns what became of the original from the reports already sent for it (a session resend recovers any it missed).
/// </remarks>
public static class NewOrderSingleReader
{
    /// <summary>
    /// Fills <paramref name="command"/> from <paramref name="message"/> (validate it against the dictionary first).
    /// On a business reject the command holds whatever was read (ClOrdID, side, quantity...) so the caller can echo
    /// it in the ExecutionReport (see <see cref="RejectEvents"/>); Sequence is left for the caller's ring.
    /// </summary>
    /// <param name="receiveTime">Gateway receive time, Unix nanoseconds; becomes <see cref="Command.Timestamp"/>.</param>
    public static MappingResult Read(FixMessage message, InstrumentDirectory instruments, int ownerId, long receiveTime, out Command command)
    {
        command = default;
        command.Type = CommandType.NewOrder;
        command.OwnerId = ownerId;
        command.Timestamp = receiveTime;
        command.InstrumentId = -1;

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

        next = OrderFields.ReadInstrument(message, instruments, out Instrument? instrument);
        if (!next.IsOk)
        {
            return next;
        }

        command.InstrumentId = instrument!.Id;
        next = OrderFields.ReadPrice(message, command.OrderType, instrument, out command.Price);
        return next.IsOk ? result : next;
    }
}
