using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Field readers shared by the D, F, G, H and q readers, so each rule exists once.</summary>
/// <remarks>Each is inlined into its reader (one call per order instead of seven): the venue's JIT compiles without a
/// profile (tiered compilation off) and left them as calls.</remarks>
internal static class OrderFields
{
    /// <summary>
    /// Starts a command of <paramref name="type"/>: who sent it and when (<paramref name="receiveTime"/>, Unix
    /// nanoseconds), and no instrument (-1) until <see cref="ReadInstrument(FixMessage, InstrumentDirectory, ref Command, out Instrument?)"/>
    /// finds one, so a request refused before that names none.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Begin(out Command command, CommandType type, int ownerId, long receiveTime)
    {
        command = default;
        command.Type = type;
        command.OwnerId = ownerId;
        command.Timestamp = receiveTime;
        command.InstrumentId = -1;
    }

    /// <summary>Symbol (55), required, as the command's instrument; <paramref name="instrument"/> is set when Ok.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult ReadInstrument(FixMessage message, InstrumentDirectory instruments, ref Command command, out Instrument? instrument)
    {
        MappingResult result = ReadInstrument(message, instruments, out instrument);
        if (result.IsOk)
        {
            command.InstrumentId = instrument!.Id;
        }

        return result;
    }

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
        return IsSupported(side) ? MappingResult.Ok : MappingResult.Business(FixTags.Side, RejectReason.InvalidSide);
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
        return IsSupported(type) ? MappingResult.Ok : MappingResult.Business(FixTags.OrdType, RejectReason.InvalidOrderType);
    }

    /// <summary>
    /// OrderQty (38) as a whole number; "100.0" is accepted, "100.5" is off lot, never rounded. A number too large for
    /// any quantity is the order's problem (a business reject, OrdRejReason 13), not the message's.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult ReadQuantity(FixMessage message, out long quantity)
    {
        FieldStatus status = message.ReadPrice(FixTags.OrderQty, 0, out quantity);
        return status switch
        {
            FieldStatus.Ok => MappingResult.Ok,
            FieldStatus.OffScale => MappingResult.Business(FixTags.OrderQty, RejectReason.QuantityOffLot),
            FieldStatus.OutOfRange => MappingResult.Business(FixTags.OrderQty, RejectReason.QuantityTooLarge),
            _ => MappingResult.Session(FixTags.OrderQty, status),
        };
    }

    public static bool IsSupported(Side side) => side is Side.Buy or Side.Sell;

    public static bool IsSupported(OrderType type) => type is OrderType.Limit or OrderType.Market;

    public static bool IsSupported(TimeInForce timeInForce) =>
        timeInForce is TimeInForce.Day or TimeInForce.GoodTillCancel or TimeInForce.ImmediateOrCancel or TimeInForce.FillOrKill;

    /// <summary>
    /// Order instructions the venue does not carry out: ExecInst (18), StopPx (99), MinQty (110), MaxFloor (111),
    /// ExpireTime (126), EffectiveTime (168), MaxShow (210), ExpireDate (432), the PegInstructions and
    /// DiscretionInstructions components, TargetStrategy and its parameters. An order with any of them is refused
    /// (OrdRejReason 11): executing it without the instruction could trade where the client said it must not (a
    /// post-only order taking liquidity, an IOC filling below its MinQty, a whole iceberg shown).
    /// </summary>
    private static ReadOnlySpan<int> UnsupportedInstructionTags =>
        [18, 99, 110, 111, 126, 168, 210, 211, 388, 389, 432, 835, 836, 837, 838, 840, 841, 842, 843, 844, 846, 847, 848, 849];

    /// <summary>
    /// Instrument fields that would name another instrument than the one listed under the Symbol alone: SymbolSfx (65),
    /// SecurityID (48) and its source (22), the alternative ids (454), CFICode (461), SecuritySubType (762), maturity
    /// (200, 541, 667), option terms (201, 202, 206), ContractMultiplier (231) and SecurityExchange (207). The venue lists
    /// instruments by Symbol only, so an order with any of them is refused as for an unknown symbol (OrdRejReason 1):
    /// entered under the Symbol, "AAPL 167=FUT 200=202603" would trade the stock.
    /// </summary>
    private static ReadOnlySpan<int> InstrumentQualifierTags => [65, 48, 22, 454, 461, 762, 200, 541, 667, 201, 202, 206, 231, 207];

    private const int SecurityType = 167;
    private const int PriceType = 423;
    private const int PriceTypePerUnit = 2;

    /// <summary>
    /// A business reject naming the first unsupported instruction the order carries (<see cref="UnsupportedInstructionTags"/>,
    /// or a PriceType other than 2, per unit, which would change what Price means), or the first field naming an
    /// instrument the venue does not list (<see cref="InstrumentQualifierTags"/>, or a SecurityType other than CS, common
    /// stock), else Ok. A layout already found free of them costs one compare (<see cref="FixMessage.InstructionFreeLayout"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult RefuseUnsupportedInstructions(FixMessage message) =>
        message.LayoutHash == message.InstructionFreeLayout ? MappingResult.Ok : CheckInstructions(message);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static MappingResult CheckInstructions(FixMessage message)
    {
        if (FirstPresent(message, UnsupportedInstructionTags) is int instruction and > 0)
        {
            return MappingResult.Business(instruction, RejectReason.UnsupportedOrderInstruction);
        }

        if (FirstPresent(message, InstrumentQualifierTags) is int qualifier and > 0)
        {
            return MappingResult.Business(qualifier, RejectReason.UnknownInstrument);
        }

        // The values of these two can change from one message of a layout to the next, so a layout with either is never
        // memoised.
        bool valueDependent = false;
        if (message.Has(PriceType))
        {
            valueDependent = true;
            if (message.ReadInt(PriceType, out int priceType) != FieldStatus.Ok || priceType != PriceTypePerUnit)
            {
                return MappingResult.Business(PriceType, RejectReason.UnsupportedOrderInstruction);
            }
        }

        if (message.Has(SecurityType))
        {
            valueDependent = true;
            if (!message.GetSpan(SecurityType).SequenceEqual("CS"u8))
            {
                return MappingResult.Business(SecurityType, RejectReason.UnknownInstrument);
            }
        }

        if (!valueDependent)
        {
            message.InstructionFreeLayout = message.LayoutHash;
        }

        return MappingResult.Ok;
    }

    /// <summary>
    /// Whether <paramref name="tag"/> is one that <see cref="RefuseUnsupportedInstructions"/> looks for: a layout without
    /// any of them always passes it.
    /// </summary>
    public static bool IsInstructionChecked(int tag) =>
        UnsupportedInstructionTags.Contains(tag) || InstrumentQualifierTags.Contains(tag) || tag is PriceType or SecurityType;

    /// <summary>
    /// Whether a field names more of an instrument than its Symbol: one of <see cref="InstrumentQualifierTags"/>, or a
    /// SecurityType other than CS. For requests that list instruments in a group (a market-data request), where each
    /// field is looked at in turn.
    /// </summary>
    public static bool NamesMoreThanSymbol(int tag, ReadOnlySpan<byte> value) =>
        InstrumentQualifierTags.Contains(tag) || (tag == SecurityType && !value.SequenceEqual("CS"u8));

    /// <summary>The first of <paramref name="tags"/> the message carries, in the list's order; 0 when none.</summary>
    private static int FirstPresent(FixMessage message, ReadOnlySpan<int> tags)
    {
        foreach (int tag in tags)
        {
            if (message.Has(tag))
            {
                return tag;
            }
        }

        return 0;
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

        // A missing price is the order's problem (Price is conditionally required, which the dictionary cannot check):
        // an order reject, or for a replace an OrderCancelReject that settles the client's pending replace. So is a
        // well-formed price too large to represent at the instrument's decimals: it is outside any band, as an
        // oversized quantity is over any limit.
        FieldStatus status = message.ReadPrice(FixTags.Price, instrument.PriceDecimals, out price);
        return status switch
        {
            FieldStatus.Ok => MappingResult.Ok,
            FieldStatus.OffScale => MappingResult.Business(FixTags.Price, RejectReason.PriceOffTick),
            FieldStatus.Missing => MappingResult.Business(FixTags.Price, RejectReason.PriceMissing),
            FieldStatus.OutOfRange => MappingResult.Business(FixTags.Price, RejectReason.PriceOutOfBand),
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
        return IsSupported(timeInForce)
            ? MappingResult.Ok
            : MappingResult.Business(FixTags.TimeInForce, RejectReason.InvalidTimeInForce);
    }
}
