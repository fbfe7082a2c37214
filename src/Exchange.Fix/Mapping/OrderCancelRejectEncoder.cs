using System.Buffers;
using Exchange.Core.Commands;
using Exchange.Core.Events;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Encodes a <see cref="EventType.CancelRejected"/> event as an OrderCancelReject (35=9). No allocation.</summary>
public static class OrderCancelRejectEncoder
{
    /// <summary>
    /// OrderID 37 ("NONE" when the order is unknown), ClOrdID 11, OrigClOrdID 41, OrdStatus 39 (8 when unknown,
    /// else the order's state, or how it ended when it is too late to cancel), CxlRejResponseTo 434 (1 cancel, 2 replace), CxlRejReason 102, Text 58, TransactTime 60.
    /// </summary>
    public static int Encode(Span<byte> destination, in FixHeader header, in EngineEvent e)
    {
        var w = new FixMessageWriter(destination);
        w.Begin("9"u8, header);
        WriteBody(ref w, e, default);
        return w.Finish();
    }

    /// <summary>Writes only the fields after the standard header (for <c>FixSession.SendApplication("9"u8, body)</c>); returns their length.</summary>
    /// <param name="text">Replaces the reason's fixed Text (58) when not empty.</param>
    public static int EncodeBody(Span<byte> destination, in EngineEvent e, ReadOnlySpan<byte> text = default)
    {
        var w = new FixMessageWriter(destination);
        WriteBody(ref w, e, text);
        return w.Length;
    }

    private static void WriteBody(ref FixMessageWriter w, in EngineEvent e, ReadOnlySpan<byte> text)
    {
        if (e.OrderId > 0)
        {
            w.AddInt(FixTags.OrderID, e.OrderId);
        }
        else
        {
            w.AddSpan(FixTags.OrderID, "NONE"u8);
        }

        w.AddSpan(FixTags.ClOrdID, e.ClOrdId.AsSpan());
        w.AddSpan(FixTags.OrigClOrdID, e.OrigClOrdId.AsSpan());
        w.AddChar(FixTags.OrdStatus, OrderStates.CancelRejectOrdStatus(e));
        w.AddChar(FixTags.CxlRejResponseTo, e.SourceCommand == CommandType.Replace ? (byte)'2' : (byte)'1');
        w.AddInt(FixTags.CxlRejReason, OrderStates.CxlRejReason(e.RejectReason));
        if (text.IsEmpty)
        {
            text = e.RejectReason == RejectReason.TooLateToCancel ? RejectTexts.TooLateToCancel(e.CancelReason) : RejectTexts.For(e.RejectReason);
        }

        w.AddSpan(FixTags.Text, text);
        w.AddTimestamp(FixTags.TransactTime, e.Timestamp);
    }

    public static int Encode(IBufferWriter<byte> output, in FixHeader header, in EngineEvent e)
    {
        ArgumentNullException.ThrowIfNull(output);
        int length = Encode(output.GetSpan(FixMessageWriter.TypicalMaxLength), header, e);
        output.Advance(length);
        return length;
    }
}
