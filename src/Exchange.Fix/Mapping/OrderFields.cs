using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Field readers shared by the D, F and G readers, so each rule exists once.</summary>
/// <remarks>Each is inlined into its reader (one call per order instead of seven): the venue's JIT compiles without a
/// profile (tiered compilation off) and left them as calls.</remarks>
internal static class OrderFields
{
    /// <summary>A ClOrdID-like field (11 or 41): required, 1..<see cref="ClOrdId.MaxLength"/> bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult ReadClOrdId(FixMessage message, int tag, out ClOrdId id)
    {
        id = default;
        int index = message.IndexOf(tag);
        if (index < 0)
        {
            return MappingResult.Session(tag, SessionRejectReason.RequiredTagMissing);
        }

        return ClOrdId.TryCreate(message.ValueAt(index), out id)
            ? MappingResult.Ok
            : MappingResult.Session(tag, SessionRejectReason.ValueIsIncorrect);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult ReadInstrument(FixMessage message, InstrumentDirectory instruments, [NotNullWhen(true)] out Instrument? instrument)
    {
        instrument = null;
        int index = message.IndexOf(FixTags.Symbol);
        if (index < 0)
        {
            return MappingResult.Session(FixTags.Symbol, SessionRejectReason.RequiredTagMissing);
        }

        return instruments.TryGet(message.ValueAt(index), out instrument)
            ? MappingResult.Ok
            : MappingResult.Business(FixTags.Symbol, RejectReason.UnknownInstrument);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult ReadSide(FixMessage message, out Side side)
    {
        side = Side.None;
        FieldStatus status = message.ReadChar(FixTags.Side, out byte value);
        if (status != FieldStatus.Ok)
        {
            return MappingResult.Session(FixTags.Side, status);
        }

        side = (Side)value;
        return side is Side.Buy or Side.Sell ? MappingResult.Ok : MappingResult.Business(FixTags.Side, RejectReason.InvalidSide);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult ReadOrderType(FixMessage message, out OrderType type)
    {
        type = OrderType.None;
        FieldStatus status = message.ReadChar(FixTags.OrdType, out byte value);
        if (status != FieldStatus.Ok)
        {
            return MappingResult.Session(FixTags.OrdType, status);
        }

        type = (OrderType)value;
        return type is OrderType.Limit or OrderType.Market ? MappingResult.Ok : MappingResult.Business(FixTags.OrdType, RejectReason.InvalidOrderType);
    }

    /// <summary>OrderQty (38) as a whole number; "100.0" is accepted, "100.5" is off lot, never rounded.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult ReadQuantity(FixMessage message, out long quantity)
    {
        FieldStatus status = message.ReadPrice(FixTags.OrderQty, 0, out quantity);
        return status switch
        {
            FieldStatus.Ok => MappingResult.Ok,
            FieldStatus.OffScale => MappingResult.Business(FixTags.OrderQty, RejectReason.QuantityOffLot),
            _ => MappingResult.Session(FixTags.OrderQty, status),
        };
    }

    /// <summary>Price (44) at the instrument's decimals; required for limit orders, ignored (0) for market orders.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult ReadPrice(FixMessage message, OrderType type, Instrument instrument, out long price)
    {
        price = 0;
        if (type != OrderType.Limit)
        {
            return MappingResult.Ok;
        }

        FieldStatus status = message.ReadPrice(FixTags.Price, instrument.PriceDecimals, out price);
        return status switch
        {
            FieldStatus.Ok => MappingResult.Ok,
            FieldStatus.OffScale => MappingResult.Business(FixTags.Price, RejectReason.PriceOffTick),
            _ => MappingResult.Session(FixTags.Price, status),
        };
    }

    /// <summary>TimeInForce (59), Day when absent.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult ReadTimeInForce(FixMessage message, out TimeInForce timeInForce)
    {
        timeInForce = TimeInForce.Day;
        FieldStatus status = message.ReadChar(FixTags.TimeInForce, out byte value);
        if (status == FieldStatus.Missing)
        {
            return MappingResult.Ok;
        }

        if (status != FieldStatus.Ok)
        {
            return MappingResult.Session(FixTags.TimeInForce, status);
        }

        timeInForce = (TimeInForce)value;
        return timeInForce is TimeInForce.Day or TimeInForce.GoodTillCancel or TimeInForce.ImmediateOrCancel or TimeInForce.FillOrKill
            ? MappingResult.Ok
            : MappingResult.Business(FixTags.TimeInForce, RejectReason.InvalidTimeInForce);
    }
}
