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
        command = default;
        command.Type = CommandType.Cancel;
        return ReadCommon(message, instruments, ownerId, receiveTime, ref command, out _);
    }

    /// <summary>The fields F and G share; <paramref name="instrument"/> is set when the result is Ok.</summary>
    internal static MappingResult ReadCommon(
        FixMessage message, InstrumentDirectory instruments, int ownerId, long receiveTime, ref Command command, out Instrument? instrument)
    {
        instrument = null;
        command.OwnerId = ownerId;
        command.Timestamp = receiveTime;
        command.InstrumentId = -1;

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

        result = OrderFields.ReadInstrument(message, instruments, out instrument);
        if (result.IsOk)
        {
            command.InstrumentId = instrument!.Id;
        }

        return result;
    }
}
