using System.Buffers;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>
/// Encodes an <see cref="EngineEvent"/> (Accepted, Rejected, Trade, Cancelled, Replaced) as an ExecutionReport
/// (35=8). CancelRejected events go to <see cref="OrderCancelRejectEncoder"/>. No allocation.
/// </summary>
public static class ExecutionReportEncoder
{
    private const int AvgPxExtraDecimals = 4;

    /// <summary>Writes the report into <paramref name="destination"/> and returns its length.</summary>
    /// <param name="symbol">Symbol (55): <see cref="InstrumentDirectory.SymbolOf"/>, or the request's own bytes for an unknown symbol.</param>
    /// <param name="priceDecimals">The instrument's <see cref="Instrument.PriceDecimals"/>.</param>
    public static int Encode(Span<byte> destination, in FixHeader header, in EngineEvent e, ReadOnlySpan<byte> symbol, int priceDecimals)
    {
        var w = new FixMessageWriter(destination);
        w.Begin("8"u8, header);
        WriteBody(ref w, e, symbol, priceDecimals, default);
        return w.Finish();
    }

    /// <summary>
    /// Writes only the fields after the standard header (37 through 60, no 8/9/35/49/56/34/52, no CheckSum) and returns
    /// their length: the body a session stores and frames itself (<c>FixSession.SendApplication("8"u8, body)</c>).
    /// </summary>
    /// <param name="rejectText">Replaces the reason's fixed Text (58) on a reject when not empty.</param>
    public static int EncodeBody(Span<byte> destination, in EngineEvent e, ReadOnlySpan<byte> symbol, int priceDecimals, ReadOnlySpan<byte> rejectText = default)
    {
        var w = new FixMessageWriter(destination);
        WriteBody(ref w, e, symbol, priceDecimals, rejectText);
        return w.Length;
    }

    private static void WriteBody(ref FixMessageWriter w, in EngineEvent e, ReadOnlySpan<byte> symbol, int priceDecimals, ReadOnlySpan<byte> rejectText)
    {
        if (e.OrderId > 0)
        {
            w.AddInt(FixTags.OrderID, e.OrderId);
        }
        else
        {
            w.AddSpan(FixTags.OrderID, "NONE"u8);
        }

        w.AddInt(FixTags.ExecID, e.EventId);
        w.AddChar(FixTags.ExecType, OrderStates.ExecType(e.Type));
        w.AddChar(FixTags.OrdStatus, OrderStates.OrdStatus(e));
        w.AddSpan(FixTags.ClOrdID, e.ClOrdId.AsSpan());
        if (!e.OrigClOrdId.IsEmpty && e.Type is EventType.Replaced or EventType.Cancelled)
        {
            w.AddSpan(FixTags.OrigClOrdID, e.OrigClOrdId.AsSpan());
        }

        w.AddChar(FixTags.Side, (byte)e.Side);
        w.AddSpan(FixTags.Symbol, symbol);
        if (e.OrderType != OrderType.None)
        {
            w.AddChar(FixTags.OrdType, (byte)e.OrderType);
        }

        w.AddInt(FixTags.OrderQty, e.OrderQuantity);
        if (e.OrderType == OrderType.Limit)
        {
            w.AddPrice(FixTags.Price, e.Price, priceDecimals);
        }

        w.AddInt(FixTags.LeavesQty, e.LeavesQuantity);
        w.AddInt(FixTags.CumQty, e.CumulativeQuantity);
        AddAveragePrice(ref w, e.CumulativeNotional, e.CumulativeQuantity, priceDecimals);
        if (e.Type == EventType.Trade)
        {
            w.AddPrice(FixTags.LastPx, e.LastPrice, priceDecimals);
            w.AddInt(FixTags.LastQty, e.LastQuantity);
        }
        else if (e.Type == EventType.Rejected)
        {
            w.AddInt(FixTags.OrdRejReason, OrderStates.OrdRejReason(e.RejectReason));
            w.AddSpan(FixTags.Text, rejectText.IsEmpty ? RejectTexts.For(e.RejectReason) : rejectText);
        }
        else if (e.Type == EventType.Cancelled && e.CancelReason != CancelReason.Requested)
        {
            w.AddSpan(FixTags.Text, RejectTexts.For(e.CancelReason));
        }

        w.AddTimestamp(FixTags.TransactTime, e.Timestamp);
    }

    /// <summary>Encodes into the writer's span and advances it.</summary>
    public static int Encode(IBufferWriter<byte> output, in FixHeader header, in EngineEvent e, ReadOnlySpan<byte> symbol, int priceDecimals)
    {
        ArgumentNullException.ThrowIfNull(output);
        int length = Encode(output.GetSpan(FixMessageWriter.TypicalMaxLength), header, e, symbol, priceDecimals);
        output.Advance(length);
        return length;
    }

    /// <summary>
    /// AvgPx (6) = notional / quantity in integer arithmetic: exact whenever the average terminates within the
    /// instrument's decimals + 4 (it is written in shortest form), otherwise rounded half-up at that precision.
    /// 0 when nothing has filled.
    /// </summary>
    private static void AddAveragePrice(ref FixMessageWriter w, long notional, long quantity, int decimals)
    {
        if (quantity <= 0)
        {
            w.AddInt(FixTags.AvgPx, 0);
            return;
        }

        int extra = Math.Min(AvgPxExtraDecimals, FixPrice.MaxDecimals - decimals);
        Int128 scaled = (Int128)notional * FixPrice.Pow10(extra);
        Int128 average = Int128.DivRem(scaled, quantity) is var (q, r) && r * 2 >= quantity ? q + 1 : q;
        w.AddPrice(FixTags.AvgPx, (long)average, decimals + extra);
    }
}
