using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;

namespace Exchange.Fix.Mapping;

/// <summary>
/// The common case of an inbound NewOrderSingle in one pass: the value checks of its layout's plan, the session
/// header's values and the mapping to a command, each field read once, by index (<see cref="NewOrderLayout"/>),
/// instead of checks storing typed values that the header and the mapper then look up by tag.
/// </summary>
/// <remarks>
/// The contract, which a differential test holds it to: true only when the plan's checks would all pass (so the
/// dictionary's verdict is no error), the message's MsgSeqNum and SendingTime are the values returned, and
/// <see cref="NewOrderSingleReader.Read"/> would return Ok with exactly the command written. False decides nothing:
/// the caller then runs the plan's checks and the mapper as usual, which give the verdict and any reject. So every
/// test here may be stricter than the usual path's, never more lenient. No allocation.
/// The order rules below (quantity in whole units, a price only for a limit order and at the instrument's decimals,
/// TimeInForce Day when absent) are <see cref="OrderFields"/>' rules read from parsed digits: a rule added there must be
/// added here too, or made to keep a layout from qualifying (<see cref="NewOrderLayout"/>).
/// FusedNewOrderReaderTests and GatewayFusedDifferentialTests compare the two paths.
/// </remarks>
internal static class FusedNewOrderReader
{
    /// <param name="message">A frame <see cref="FixFramer"/> accepted (BodyLength is not checked again), parsed along
    /// <paramref name="layout"/>'s plan with its checks not yet run (<see cref="FixMessage.ParseDeferringGuidedChecks"/>).</param>
    /// <param name="command">May be partly written when false is returned (the caller maps into the same slot again then).</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryRead(
        FixMessage message,
        NewOrderLayout layout,
        InstrumentDirectory instruments,
        int ownerId,
        long receiveTime,
        ref Command command,
        out int msgSeqNum,
        out long sendingTime)
    {
        msgSeqNum = 0;
        sendingTime = 0;
        Span<FixMessage.Field> fields = message.Fields;
        ReadOnlySpan<byte> raw = message.Raw;
        ref byte rawStart = ref MemoryMarshal.GetReference(raw);
        ref TimestampCache timestamps = ref message.Timestamps;
        if (layout.OtherChecks.Length != 0 && !OthersPass(layout.OtherChecks, fields, raw, ref timestamps))
        {
            return false;
        }

        // The header's two values; 0 or a number past int would read as no MsgSeqNum, so the usual path handles it.
        ref FixMessage.Field seq = ref fields[layout.MsgSeqNumIndex];
        ref FixMessage.Field sending = ref fields[layout.SendingTimeIndex];
        if (!PlannedCheck.PassesInt(ref seq, ref rawStart) || seq.Value is < 1 or > int.MaxValue ||
            !PlannedCheck.PassesTimestamp(ref sending, ref rawStart, ref timestamps) ||
            (layout.TransactTimeIndex != NewOrderLayout.Absent && !PlannedCheck.PassesTimestamp(ref fields[layout.TransactTimeIndex], ref rawStart, ref timestamps)))
        {
            return false;
        }

        if (!TryReadChar(fields[layout.SideIndex], raw, layout.Sides, out byte side) ||
            !TryReadChar(fields[layout.OrdTypeIndex], raw, layout.OrdTypes, out byte orderType))
        {
            return false;
        }

        byte timeInForce = (byte)TimeInForce.Day;
        if (layout.TimeInForceIndex != NewOrderLayout.Absent && !TryReadChar(fields[layout.TimeInForceIndex], raw, layout.TimesInForce, out timeInForce))
        {
            return false;
        }

        // Both decimals are checked whatever the order type, as the plan checks them; a market order's price is 0.
        long priceDigits = 0;
        int priceScale = 0;
        if (!TryReadDecimal(fields[layout.OrderQtyIndex], raw, out long quantity, out int quantityScale) ||
            (quantityScale != 0 && FixPrice.Rescale(quantity, quantityScale, 0, out quantity) != FieldStatus.Ok) ||
            (layout.PriceIndex != NewOrderLayout.Absent && !TryReadDecimal(fields[layout.PriceIndex], raw, out priceDigits, out priceScale)))
        {
            return false;
        }

        FixMessage.Field symbol = fields[layout.SymbolIndex];
        if (!instruments.TryGetPricing(raw.Slice(symbol.Offset, symbol.Length), out int instrumentId, out int priceDecimals))
        {
            return false;
        }

        long price = 0;
        if ((OrderType)orderType == OrderType.Limit &&
            (layout.PriceIndex == NewOrderLayout.Absent || FixPrice.Rescale(priceDigits, priceScale, priceDecimals, out price) != FieldStatus.Ok))
        {
            return false;
        }

        OrderFields.Begin(out command, CommandType.NewOrder, ownerId, receiveTime);
        FixMessage.Field clOrdId = fields[layout.ClOrdIdIndex];
        if (!Core.Domain.ClOrdId.TryCreate(raw.Slice(clOrdId.Offset, clOrdId.Length), out command.ClOrdId))
        {
            return false;
        }

        command.Side = (Side)side;
        command.Quantity = quantity;
        command.OrderType = (OrderType)orderType;
        command.TimeInForce = (TimeInForce)timeInForce;
        command.InstrumentId = instrumentId;
        command.Price = price;
        msgSeqNum = (int)seq.Value;
        sendingTime = sending.Value;
        return true;
    }

    /// <summary>
    /// A decimal's digits and scale, as the plan's decimal check reads them (<see cref="PlannedCheck.PassesDecimal"/>),
    /// into locals: storing them in the field and reading them back, as that check does, measured 2-3 ns slower per order.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryReadDecimal(in FixMessage.Field field, ReadOnlySpan<byte> raw, out long digits, out int scale) =>
        FixPrice.TryParseDigits(raw.Slice(field.Offset, field.Length), out digits, out scale) == FixPrice.DigitsResult.Ok;

    /// <summary>A one-byte value in <paramref name="accepted"/> (a subset of the field's enum: the check and the mapper's test in one).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryReadChar(in FixMessage.Field field, ReadOnlySpan<byte> raw, EnumMask accepted, out byte value)
    {
        value = raw[field.Offset];
        return field.Length == 1 && accepted.Contains(value);
    }

    /// <summary>The plan's checks of fields the fused read does not consume, as the plan runs them.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool OthersPass(ReadOnlySpan<ValueCheck> checks, Span<FixMessage.Field> fields, ReadOnlySpan<byte> raw, ref TimestampCache timestamps)
    {
        ref byte rawStart = ref MemoryMarshal.GetReference(raw);
        foreach (ref readonly ValueCheck check in checks)
        {
            if (!PlannedCheck.Passes(check, ref fields[check.FieldIndex], ref rawStart, ref timestamps))
            {
                return false;
            }
        }

        return true;
    }
}
