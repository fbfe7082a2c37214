using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>Encodes a <see cref="EventType.MassCancelReport"/> event as an OrderMassCancelReport (35=r). No allocation.</summary>
/// <remarks>
/// OrderID 37 (the report's event id: FIX asks for an id the venue gives the request), ClOrdID 11,
/// MassCancelRequestType 530 (1 one symbol, 7 everything, or the type the client asked for when it was refused),
/// MassCancelResponse 531 (the same as 530 when carried out, 0 when refused), MassCancelRejectReason 532 when refused,
/// Symbol 55 when one, Side 54 when one, TotalAffectedOrders 533, Text 58 when refused, TransactTime 60.
/// </remarks>
public static class OrderMassCancelReportEncoder
{
    /// <summary>Writes only the fields after the standard header (for <c>FixSession.SendApplication("r"u8, body)</c>); returns their length.</summary>
    /// <param name="symbol">The instrument's symbol, the request's own bytes for an unknown one, or empty for every instrument.</param>
    /// <param name="requestType">MassCancelRequestType to echo; 0 to derive it from the event (1 for an instrument, 7 for all).</param>
    /// <param name="rejectText">Text of a refusal, replacing the reason's; a report with one is a refusal even without a reason (the venue stopping).</param>
    public static int EncodeBody(Span<byte> destination, in EngineEvent e, ReadOnlySpan<byte> symbol, byte requestType = 0, ReadOnlySpan<byte> rejectText = default)
    {
        if (requestType == 0)
        {
            requestType = e.InstrumentId < 0 ? (byte)'7' : (byte)'1';
        }

        bool refused = e.RejectReason != RejectReason.None || !rejectText.IsEmpty;
        var w = new FixMessageWriter(destination);
        w.AddInt(FixTags.OrderID, e.EventId);
        w.AddSpan(FixTags.ClOrdID, e.ClOrdId.AsSpan());
        w.AddChar(FixTags.MassCancelRequestType, requestType);
        w.AddChar(FixTags.MassCancelResponse, refused ? (byte)'0' : requestType);
        if (refused)
        {
            w.AddInt(FixTags.MassCancelRejectReason, RejectReasonCode(e.RejectReason));
        }

        if (!symbol.IsEmpty)
        {
            w.AddSpan(FixTags.Symbol, symbol);
        }

        if (e.Side is Side.Buy or Side.Sell)
        {
            w.AddChar(FixTags.Side, (byte)e.Side);
        }

        w.AddInt(FixTags.TotalAffectedOrders, e.AffectedOrders);
        if (refused)
        {
            w.AddSpan(FixTags.Text, rejectText.IsEmpty ? RejectTexts.For(e.RejectReason) : rejectText);
        }

        w.AddTimestamp(FixTags.TransactTime, e.Timestamp);
        return w.Length;
    }

    /// <summary>MassCancelRejectReason (532): 0 mass cancel not supported (this type), 1 unknown security, 99 other.</summary>
    private static int RejectReasonCode(RejectReason reason) => reason switch
    {
        RejectReason.UnsupportedMassCancel => 0,
        RejectReason.UnknownInstrument => 1,
        _ => 99,
    };
}
