using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Maps an OrderCancelRequest (35=F) to a <see cref="CommandType.Cancel"/> command. No allocation.</summary>
public static class OrderCancelRequestReader
{
    /// <summary>Reads ClOrdID (11), OrigClOrdID (41), Symbol (55) and Side (54). A business reject becomes an OrderCancelReject.</summary>
    public static MappingResult Read(FixMessage message, InstrumentDirectory instruments, int ownerId, long receiveTime, out Command command)
    {
        OrderFields.Begin(out command, CommandType.Cancel, ownerId, receiveTime);
        return ReadCommon(message, instruments, ref command, out _);
    }

    /// <summary>The fields F and G share, into a command <see cref="OrderFields.Begin"/> started; <paramref name="instrument"/> is set when the result is Ok.</summary>
    internal static MappingResult ReadCommon(FixMessage message, InstrumentDirectory instruments, ref Command command, out Instrument? instrument)
    {
        instrument = null;
        MappingResult result = OrderFields.ReadClOrdId(message, FixTags.ClOrdID, out command.ClOrdId);
        if (result.IsOk)
        {
            result = OrderFields.ReadClOrdId(message, FixTags.OrigClOrdID, out command.OrigClOrdId);
        }

        if (!result.IsOk)
        {
            return result;
        }

        result = OrderFields.ReadSide(message, out command.Side);
        if (!result.IsOk)
        {
            return result;
        }

        return OrderFields.ReadInstrument(message, instruments, ref command, out instrument);
    }
}
