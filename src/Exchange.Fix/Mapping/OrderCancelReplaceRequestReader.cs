using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Maps an OrderCancelReplaceRequest (35=G) to a <see cref="CommandType.Replace"/> command. No allocation.</summary>
public static class OrderCancelReplaceRequestReader
{
    /// <summary>
    /// Reads the F fields plus the new OrderQty (38), OrdType (40, required), TimeInForce (59, optional) and, for a
    /// limit OrdType, the new Price (44). OrdType and TimeInForce go into the command so the engine can refuse a
    /// replace that would change them (it keeps the order's own); an absent TimeInForce means "unchanged".
    /// </summary>
    public static MappingResult Read(FixMessage message, InstrumentDirectory instruments, int ownerId, long receiveTime, out Command command)
    {
        OrderFields.Begin(out command, CommandType.Replace, ownerId, receiveTime);
        MappingResult result = OrderCancelRequestReader.ReadCommon(message, instruments, ref command, out Instrument? instrument);
        if (!result.IsOk)
        {
            return result;
        }

        result = OrderFields.ReadQuantity(message, out command.Quantity);
        if (!result.IsOk)
        {
            return result;
        }

        result = OrderFields.ReadOrderType(message, out command.OrderType);
        if (!result.IsOk)
        {
            return result;
        }

        if (message.Has(FixTags.TimeInForce))
        {
            result = OrderFields.ReadTimeInForce(message, out command.TimeInForce);
            if (!result.IsOk)
            {
                return result;
            }
        }

        result = OrderFields.ReadPrice(message, command.OrderType, instrument!, out command.Price);
        return result.IsOk ? OrderFields.RefuseUnsupportedInstructions(message) : result;
    }
}
