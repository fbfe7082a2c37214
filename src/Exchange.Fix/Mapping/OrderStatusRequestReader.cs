using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Maps an OrderStatusRequest (35=H) to a <see cref="CommandType.StatusRequest"/> command. No allocation.</summary>
/// <remarks>
/// The order is named by ClOrdID (11), Side (54) and Symbol (55), all required by FIX 4.4. OrderID (37), optional, is
/// not read: the venue's ClOrdIDs are unique per session and day, so the ClOrdID already names one order. OrdStatusReqID
/// (790), optional, is carried in <see cref="Command.OrigClOrdId"/> for the report to echo, so it has the same limit as a
/// ClOrdID (1..<see cref="ClOrdId.MaxLength"/> bytes). A business reject (unknown symbol, a side other than buy or sell)
/// is answered with an Order Status report naming no order.
/// </remarks>
public static class OrderStatusRequestReader
{
    public static MappingResult Read(FixMessage message, InstrumentDirectory instruments, int ownerId, long receiveTime, out Command command)
    {
        OrderFields.Begin(out command, CommandType.StatusRequest, ownerId, receiveTime);

        MappingResult result = OrderFields.ReadClOrdId(message, FixTags.ClOrdID, out command.ClOrdId);
        if (result.IsOk && message.IndexOf(FixTags.OrdStatusReqID) >= 0)
        {
            result = OrderFields.ReadClOrdId(message, FixTags.OrdStatusReqID, out command.OrigClOrdId);
        }

        if (result.IsOk)
        {
            result = OrderFields.ReadSide(message, out command.Side);
        }

        if (!result.IsOk)
        {
            return result;
        }

        return OrderFields.ReadInstrument(message, instruments, ref command, out _);
    }
}
