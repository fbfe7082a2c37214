using System.Buffers;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>
/// Encodes an <see cref="EngineEvent"/> (Accepted, Rejected, Trade, Cancelled, Replaced, OrderStatus) as an
/// ExecutionReport (35=8). CancelRejected events go to <see cref="OrderCancelRejectEncoder"/>. No allocation.
/// </summary>
/// <remarks>
/// An OrderStatus event is an Order Status report (150=I): the order's current OrderID, OrdStatus, quantities and
/// AvgPx, no LastPx/LastQty (nothing executed), and ExecID 0, as FIX 4.4 defines ExecID for ExecType I: it reports no
/// execution, so it takes no execution id. The session still stores it under its event id. One that answers an
/// OrderStatusRequest echoes its OrdStatusReqID (790, carried in OrigClOrdId); one that names no order (OrderID NONE)
/// is OrdStatus 8 with OrdRejReason (103) and Text saying why.
/// </remarks>
public static class ExecutionReportEncoder
{
    private const int AvgPxExtraDecimals = 4;

    /// <summary>10^<see cref="AvgPxExtraDecimals"/>: notionals up to long.MaxValue / this scale without overflow.</summary>
    private const long MaxAverageScale = 10_000;

    /// <summary>Writes the report into <paramref name="destination"/> and returns its length.</summary>
    /// <param name="symbol">Symbol (55): <see cref="InstrumentDirectory.SymbolOf"/>, or the request's own bytes for an unknown symbol.</param>
    /// <param name="priceDecimals">The instrument's <see cref="Instrument.PriceDecimals"/>.</param>
    /// <exception cref="ArgumentException">The destination cannot hold the longest report of these inputs.</exception>
    public static int Encode(Span<byte> destination, in FixHeader header, in EngineEvent e, ReadOnlySpan<byte> symbol, int priceDecimals)
    {
        ReadOnlySpan<byte> text = TextOf(e, default);
        EnsureRoom(destination, MaxReportLength(header, e, symbol, text));
        ref byte d = ref MemoryMarshal.GetReference(destination);
        int pos = FixFields.Header(ref d, "8"u8, header);
        pos = WriteBody(ref d, pos, e, symbol, priceDecimals, text, FixFields.SendingTimeAt(header, pos), header.SendingTime, false, default);
        return FixFields.Finish(destination, pos);
    }

    /// <summary>
    /// Writes only the fields after the standard header (37 through 60, no 8/9/35/49/56/34/52, no CheckSum) and returns
    /// their length: the body a session stores and frames itself (<c>FixSession.SendApplication("8"u8, body)</c>).
    /// </summary>
    /// <param name="rejectText">Replaces the reason's fixed Text (58) on a reject when not empty.</param>
    /// <exception cref="ArgumentException">The destination cannot hold the longest body of these inputs.</exception>
    public static int EncodeBody(Span<byte> destination, in EngineEvent e, ReadOnlySpan<byte> symbol, int priceDecimals, ReadOnlySpan<byte> rejectText = default)
    {
        ReadOnlySpan<byte> text = TextOf(e, rejectText);
        EnsureRoom(destination, MaxBodyLength(e, symbol, text) + FixDigits.Slack);
        return WriteBody(ref MemoryMarshal.GetReference(destination), 0, e, symbol, priceDecimals, text, -1, 0, false, default);
    }

    /// <summary>
    /// <see cref="EncodeBody"/> for a request the gateway refused itself, before or while reading its price: a limit
    /// order's Price (44) is the request's own text (already checked to be a decimal), or left out when it had none,
    /// never the event's, which holds 0 when the price was not read (an unknown symbol, a price off the instrument's
    /// decimals). A report must not state a price the client never sent.
    /// </summary>
    public static int EncodeRequestRejectBody(
        Span<byte> destination, in EngineEvent e, ReadOnlySpan<byte> symbol, int priceDecimals, ReadOnlySpan<byte> rejectText, ReadOnlySpan<byte> requestPrice)
    {
        ReadOnlySpan<byte> text = TextOf(e, rejectText);
        EnsureRoom(destination, MaxBodyLength(e, symbol, text) + requestPrice.Length + FixDigits.Slack);
        return WriteBody(ref MemoryMarshal.GetReference(destination), 0, e, symbol, priceDecimals, text, -1, 0, true, requestPrice);
    }

    /// <summary>
    /// Longest body these inputs can produce: every scalar field (37 or "NONE", 17, 150, 39, 54, 40, 38, 44, 151, 14,
    /// 6, 31, 32, 103, 60) at its maximum and the variable ones (11, 41 or 790, 55, 58) at their length.
    /// </summary>
    private static int MaxBodyLength(in EngineEvent e, ReadOnlySpan<byte> symbol, ReadOnlySpan<byte> text) =>
        (15 * FixFields.MaxScalarField) + (5 * FixFields.MaxSpanFieldOverhead) + 4 + e.ClOrdId.Length + e.OrigClOrdId.Length +
        symbol.Length + text.Length;

    /// <summary>Room a whole report of these inputs needs, the fields' store slack included.</summary>
    private static int MaxReportLength(in FixHeader header, in EngineEvent e, ReadOnlySpan<byte> symbol, ReadOnlySpan<byte> text) =>
        FixFields.MaxHeaderLength("8"u8, header) + MaxBodyLength(e, symbol, text) + FixConstants.TrailerLength + FixDigits.Slack;

    /// <summary>One check for the whole report, so the fields are written without any (see <see cref="FixFields"/>).</summary>
    private static void EnsureRoom(Span<byte> destination, int room)
    {
        if (destination.Length < room)
        {
            FixFields.ThrowTooSmall();
        }
    }

    /// <summary>
    /// Text (58): on a reject (or an Order Status report refused for a reason) the caller's text or the reason's, on an
    /// unsolicited cancel the reason's, else none.
    /// </summary>
    private static ReadOnlySpan<byte> TextOf(in EngineEvent e, ReadOnlySpan<byte> rejectText) =>
        IsRefused(e) ? (rejectText.IsEmpty ? RejectTexts.For(e.RejectReason) : rejectText) :
        e.Type == EventType.Cancelled && e.CancelReason != CancelReason.Requested ? RejectTexts.For(e.CancelReason) :
        default;

    /// <summary>
    /// A rejected order, or an Order Status report that names no order (unknown, or the venue stopping: a status report
    /// with a reason never names one): both carry OrdRejReason and Text.
    /// </summary>
    private static bool IsRefused(in EngineEvent e) =>
        e.Type == EventType.Rejected || (e.Type == EventType.OrderStatus && e.OrderId == 0);

    /// <summary>Writes the body at <paramref name="pos"/> and returns the position after it; the room is checked.</summary>
    /// <param name="sendingTimeAt">Where the header's SendingTime text is, or -1: TransactTime in the same millisecond
    /// copies those 21 bytes instead of formatting them again.</param>
    /// <param name="sendingTime">The header's SendingTime, when <paramref name="sendingTimeAt"/> is not -1.</param>
    /// <param name="priceFromRequest">A limit order's Price is <paramref name="requestPrice"/> (none when empty), not the event's.</param>
    /// <param name="requestPrice">See <see cref="EncodeRequestRejectBody"/>.</param>
    /// <remarks>Not inlined into the callers: as its own compilation root it gets the JIT's whole inlining budget,
    /// so every field writer is inlined (within Encode the budget ran out half-way and the rest became calls).</remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int WriteBody(
        ref byte d,
        int pos,
        in EngineEvent e,
        ReadOnlySpan<byte> symbol,
        int priceDecimals,
        ReadOnlySpan<byte> text,
        int sendingTimeAt,
        long sendingTime,
        bool priceFromRequest,
        ReadOnlySpan<byte> requestPrice)
    {
        // The division first: its result is ready by the time field 6 is written, instead of every later field's
        // position waiting for it.
        long average = AveragePrice(e.CumulativeNotional, e.CumulativeQuantity, e.LastPrice, out int averageDecimals, priceDecimals);
        pos = e.OrderId > 0
            ? FixFields.Int(ref d, pos, FixFields.PrefixOf(FixTags.OrderID), e.OrderId)
            : FixFields.Bytes(ref d, pos, FixFields.PrefixOf(FixTags.OrderID), "NONE"u8);
        pos = FixFields.Int(ref d, pos, FixFields.PrefixOf(FixTags.ExecID), e.Type == EventType.OrderStatus ? 0 : e.EventId);
        pos = FixFields.Char(ref d, pos, FixFields.PrefixOf(FixTags.ExecType), OrderStates.ExecType(e));
        pos = FixFields.Char(ref d, pos, FixFields.PrefixOf(FixTags.OrdStatus), OrderStates.OrdStatus(e));
        pos = FixFields.Bytes(ref d, pos, FixFields.PrefixOf(FixTags.ClOrdID), e.ClOrdId.AsSpan());
        if (!e.OrigClOrdId.IsEmpty)
        {
            if (e.Type is EventType.Replaced or EventType.Cancelled)
            {
                pos = FixFields.Bytes(ref d, pos, FixFields.PrefixOf(FixTags.OrigClOrdID), e.OrigClOrdId.AsSpan());
            }
            else if (e.Type == EventType.OrderStatus && e.SourceCommand == CommandType.StatusRequest)
            {
                pos = FixFields.Bytes(ref d, pos, FixFields.PrefixOf(FixTags.OrdStatusReqID), e.OrigClOrdId.AsSpan());
            }
        }

        pos = FixFields.Char(ref d, pos, FixFields.PrefixOf(FixTags.Side), (byte)e.Side);
        pos = FixFields.Bytes(ref d, pos, FixFields.PrefixOf(FixTags.Symbol), symbol);
        if (e.OrderType != OrderType.None)
        {
            pos = FixFields.Char(ref d, pos, FixFields.PrefixOf(FixTags.OrdType), (byte)e.OrderType);
        }

        if (e.OrderQuantity != 0)
        {
            // OrderQty is optional in an ExecutionReport; 0 means the report has none to state (a reject of a quantity
            // the venue could not represent, a status of an unknown order), and a client must not read it as the order's.
            pos = FixFields.Int(ref d, pos, FixFields.PrefixOf(FixTags.OrderQty), e.OrderQuantity);
        }

        if (e.OrderType == OrderType.Limit)
        {
            if (!priceFromRequest)
            {
                pos = FixFields.Price(ref d, pos, FixFields.PrefixOf(FixTags.Price), e.Price, priceDecimals);
            }
            else if (!requestPrice.IsEmpty)
            {
                pos = FixFields.Bytes(ref d, pos, FixFields.PrefixOf(FixTags.Price), requestPrice);
            }
        }

        pos = FixFields.Int(ref d, pos, FixFields.PrefixOf(FixTags.LeavesQty), e.LeavesQuantity);
        pos = FixFields.Int(ref d, pos, FixFields.PrefixOf(FixTags.CumQty), e.CumulativeQuantity);
        pos = FixFields.Price(ref d, pos, FixFields.PrefixOf(FixTags.AvgPx), average, averageDecimals);
        if (e.Type == EventType.Trade)
        {
            pos = FixFields.Price(ref d, pos, FixFields.PrefixOf(FixTags.LastPx), e.LastPrice, priceDecimals);
            pos = FixFields.Int(ref d, pos, FixFields.PrefixOf(FixTags.LastQty), e.LastQuantity);
        }
        else if (IsRefused(e))
        {
            pos = FixFields.Int(ref d, pos, FixFields.PrefixOf(FixTags.OrdRejReason), OrderStates.OrdRejReason(e.RejectReason));
        }

        if (!text.IsEmpty)
        {
            pos = FixFields.Bytes(ref d, pos, FixFields.PrefixOf(FixTags.Text), text);
        }

        return sendingTimeAt >= 0 && FixTimestamp.SameMillisecond(e.Timestamp, sendingTime)
            ? FixFields.CopiedTimestamp(ref d, pos, FixFields.PrefixOf(FixTags.TransactTime), sendingTimeAt)
            : FixFields.Timestamp(ref d, pos, FixFields.PrefixOf(FixTags.TransactTime), e.Timestamp);
    }

    /// <summary>Encodes into the writer's span and advances it.</summary>
    public static int Encode(IBufferWriter<byte> output, in FixHeader header, in EngineEvent e, ReadOnlySpan<byte> symbol, int priceDecimals)
    {
        ArgumentNullException.ThrowIfNull(output);
        int length = Encode(output.GetSpan(MaxReportLength(header, e, symbol, TextOf(e, default))), header, e, symbol, priceDecimals);
        output.Advance(length);
        return length;
    }

    /// <summary>
    /// AvgPx (6) = notional / quantity in integer arithmetic, in units of 10^-<paramref name="decimals"/>: exact
    /// whenever the average terminates within the instrument's decimals + 4 (it is written in shortest form),
    /// otherwise rounded half-up at that precision. 0 when nothing has filled.
    /// </summary>
    /// <remarks>
    /// The text is the same whichever <paramref name="decimals"/> is returned (shortest form), so an average that is
    /// whole at the instrument's decimals is returned at those: the price formatter's short path, not its general one.
    /// </remarks>
    private static long AveragePrice(long notional, long quantity, long lastPrice, out int decimals, int priceDecimals)
    {
        decimals = priceDecimals;
        if (quantity <= 0)
        {
            return 0;
        }

        // Every fill at one price (a first fill, most orders): notional == lastPrice * quantity exactly (checked in
        // 128 bits, so a wrapped product cannot match), and the average is lastPrice without a division.
        long high = Math.BigMul(lastPrice, quantity, out long low);
        if (low == notional && high == (notional >> 63))
        {
            return lastPrice;
        }

        int extra = Math.Min(AvgPxExtraDecimals, FixPrice.MaxDecimals - priceDecimals);
        decimals = priceDecimals + extra;
        long scale = FixPrice.Pow10(extra);
        if ((ulong)notional <= long.MaxValue / MaxAverageScale)
        {
            // Every realistic notional: the scaled value fits a long, so one 64-bit division instead of Int128's.
            long scaled = notional * scale;
            long q = Math.DivRem(scaled, quantity, out long r);
            q = r >= quantity - r ? q + 1 : q; // half-up, as 2r >= quantity without overflow
            if (extra == AvgPxExtraDecimals && q % MaxAverageScale == 0)
            {
                // Whole at the instrument's decimals (divisions by a constant: multiplies).
                decimals = priceDecimals;
                return q / MaxAverageScale;
            }

            return q;
        }

        return WideAveragePrice(notional, quantity, extra, ref decimals, scale);
    }

    /// <summary><see cref="AveragePrice"/> of a notional beyond long.MaxValue / 10^4 or negative: out of line.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long WideAveragePrice(long notional, long quantity, int extra, ref int decimals, long scale)
    {
        // Notionals beyond that (or negative): exact in Int128. An average too large for a long at the extra
        // precision (above ~9.2e10 at a 4-decimal instrument) gives up extra decimals until it fits, rather than
        // wrapping around; at the instrument's own decimals it always fits (|notional / quantity| <= |notional|).
        for (; ; extra--, decimals--, scale /= 10)
        {
            Int128 wide = (Int128)notional * scale;
            (Int128 quotient, Int128 remainder) = Int128.DivRem(wide, quantity);
            Int128 average = remainder * 2 >= quantity ? quotient + 1 : quotient;
            if ((average <= long.MaxValue && average >= long.MinValue) || extra == 0)
            {
                return (long)average;
            }
        }
    }
}
