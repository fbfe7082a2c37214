using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Maps an OrderMassCancelRequest (35=q) to a <see cref="CommandType.MassCancel"/> command. No allocation.</summary>
/// <remarks>
/// ClOrdID (11) and MassCancelRequestType (530) are required (TransactTime 60 too, which the dictionary checks).
/// 530=1 cancels the session's orders in Symbol (55, then required), 530=7 all of them (a Symbol is then ignored); the
/// other kinds FIX defines (by underlying, product, CFICode, security type, trading session) are refused with
/// MassCancelRejectReason 0, as the venue has none of those groupings. Side (54), optional, limits it to one side.
/// </remarks>
public static class OrderMassCancelRequestReader
{
    public static MappingResult Read(FixMessage message, InstrumentDirectory instruments, int ownerId, long receiveTime, out Command command)
    {
        OrderFields.Begin(out command, CommandType.MassCancel, ownerId, receiveTime);

        MappingResult result = OrderFields.ReadClOrdId(message, FixTags.ClOrdID, out command.ClOrdId);
        if (!result.IsOk)
        {
            return result;
        }

        FieldStatus status = message.ReadChar(FixTags.MassCancelRequestType, out byte type);
        if (status != FieldStatus.Ok)
        {
            return MappingResult.Session(FixTags.MassCancelRequestType, status);
        }

        if (message.IndexOf(FixTags.Side) >= 0)
        {
            result = OrderFields.ReadSide(message, out command.Side);
            if (!result.IsOk)
            {
                return result;
            }
        }

        if (type == (byte)'7')
        {
            return MappingResult.Ok;
        }

        if (type != (byte)'1')
        {
            return MappingResult.Business(FixTags.MassCancelRequestType, RejectReason.UnsupportedMassCancel);
        }

        return OrderFields.ReadInstrument(message, instruments, ref command, out _);
    }
}
