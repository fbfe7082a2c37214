using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Maps an OrderCancelReplaceRequest (35=G) to a <see cref="CommandType.Replace"/> command. No allocation.</summary>
public static class OrderCancelReplaceRequestReader
{
    /// <summary>
    /// Reads the F fields plus the new OrderQty (38) and, for OrdType (40) limit, the new Price (44). OrdType must be
    /// present (FIX requires it) but the engine keeps the order's own type; it only decides whether Price is needed.
    /// </summary>
    public static MappingResult Read(FixMessage message, InstrumentDirectory instruments, int ownerId, long receiveTime, out Command command)
    {
        command = default;
        command.Type = CommandType.Replace;
        MappingResult result = OrderCancelRequestReader.ReadCommon(message, instruments, ownerId, receiveTime, ref command, out Instrument? instrument);
        if (!result.IsOk)
        {
            return result;
        }

        result = OrderFields.ReadQuantity(message, out command.Quantity);
        if (!result.IsOk)
        {
            return result;
        }

        result = OrderFields.ReadOrderType(message, out OrderType type);
        if (!result.IsOk)
        {
            return result;
        }

        return OrderFields.ReadPrice(message, type, instrument!, out command.Price);
    }
}
