using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Mapping;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class ExecutionReportEncoderTests
{
    private static readonly long Time = FieldTypeTestData.Nanos(2024, 3, 15, 14, 30, 0, 5_000_000);

    private static EngineEvent Event(EventType type)
    {
        var e = new EngineEvent
        {
            Type = type,
            SourceCommand = CommandType.NewOrder,
            Side = Side.Buy,
            OrderType = OrderType.Limit,
            InstrumentId = 0,
            OrderId = 42,
            Price = 1_434_200,
            OrderQuantity = 2000,
            LeavesQuantity = 2000,
            EventId = 1111,
            Timestamp = Time,
            ClOrdId = ClOrdId.From("C056"),
        };
        return e;
    }

    private static FixMessage EncodeAndParse(in EngineEvent e, out string wire)
    {
        var buffer = new byte[FixMessageWriter.TypicalMaxLength];
        int length = ExecutionReportEncoder.Encode(buffer, new FixHeader("TS"u8, "CLIENT1"u8, 9, Time), e, "AAPL"u8, 4);
        wire = FixTestMessages.Show(buffer.AsSpan(0, length));
        var message = new FixMessage();
        Assert.True(message.Parse(buffer.AsSpan(0, length)));
        Assert.Equal(FixFieldError.None, FixDictionary.Fix44.Validate(message));
        return message;
    }

    private static string Field(FixMessage message, int tag) => FixTestMessages.Show(message.GetSpan(tag));

    [Fact]
    public void PartialFill_IsEncodedExactly()
    {
        EngineEvent e = Event(EventType.Trade);
        e.LeavesQuantity = 100;
        e.CumulativeQuantity = 1900;
        e.CumulativeNotional = (1000 * 1_434_200L) + (900 * 1_433_778L);
        e.LastPrice = 1_434_200;
        e.LastQuantity = 1000;
        e.TradeId = 7;

        EncodeAndParse(e, out string wire);

        string expected = FixTestMessages.Show(FixTestMessages.Wrap(
            "35=8|49=TS|56=CLIENT1|34=9|52=20240315-14:30:00.005|37=42|17=1111|150=F|39=1|11=C056|54=1|55=AAPL|40=2|38=2000|44=143.42|" +
            "151=100|14=1900|6=143.40001053|31=143.42|32=1000|60=20240315-14:30:00.005|"));
        Assert.Equal(expected, wire);
    }

    [Theory]
    [InlineData(EventType.Accepted, 0, 2000, "0", "0")]
    [InlineData(EventType.Trade, 2000, 0, "F", "2")]
    [InlineData(EventType.Cancelled, 500, 0, "4", "4")]
    [InlineData(EventType.Replaced, 500, 1500, "5", "1")]
    [InlineData(EventType.Replaced, 0, 2000, "5", "0")]
    public void ExecTypeAndOrdStatus_FollowTheOrderState(EventType type, long cum, long leaves, string execType, string ordStatus)
    {
        EngineEvent e = Event(type);
        e.CumulativeQuantity = cum;
        e.CumulativeNotional = cum * 1_434_200;
        e.LeavesQuantity = leaves;
        e.OrigClOrdId = type is EventType.Replaced or EventType.Cancelled ? ClOrdId.From("C055") : default;
        e.CancelReason = type == EventType.Cancelled ? CancelReason.Requested : CancelReason.None;

        FixMessage message = EncodeAndParse(e, out _);

        Assert.Equal(execType, Field(message, FixTags.ExecType));
        Assert.Equal(ordStatus, Field(message, FixTags.OrdStatus));
        Assert.Equal(cum == 0 ? "0" : "143.42", Field(message, FixTags.AvgPx));
        Assert.Equal(type is EventType.Replaced or EventType.Cancelled ? "C055" : string.Empty, Field(message, FixTags.OrigClOrdID));
        Assert.Equal(type == EventType.Trade, message.Has(FixTags.LastPx));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(500)]
    public void Expiry_IsExecTypeAndOrdStatusExpired_WithItsText(long cum)
    {
        EngineEvent e = Event(EventType.Cancelled);
        e.SourceCommand = CommandType.NewTradingDay;
        e.CancelReason = CancelReason.Expired;
        e.CumulativeQuantity = cum;
        e.CumulativeNotional = cum * 1_434_200;
        e.LeavesQuantity = 0;

        FixMessage message = EncodeAndParse(e, out _);

        Assert.Equal("C", Field(message, FixTags.ExecType));
        Assert.Equal("C", Field(message, FixTags.OrdStatus));
        Assert.Equal("C056", Field(message, FixTags.ClOrdID));
        Assert.False(message.Has(FixTags.OrigClOrdID));
        Assert.Equal(cum.ToString(System.Globalization.CultureInfo.InvariantCulture), Field(message, FixTags.CumQty));
        Assert.Equal("Day order expired at the start of a new trading day", Field(message, FixTags.Text));
    }

    [Fact]
    public void Killed_fill_or_kill_IsExecTypeAndOrdStatusCanceled_WithItsText_AndNoOrderId()
    {
        EngineEvent e = Event(EventType.Cancelled);
        e.CancelReason = CancelReason.FillOrKillUnfillable;
        e.OrigClOrdId = default;
        (e.OrderId, e.LeavesQuantity, e.CumulativeQuantity, e.CumulativeNotional) = (0, 0, 0, 0);

        FixMessage message = EncodeAndParse(e, out _);

        Assert.Equal(("4", "4", "NONE", "0"), (Field(message, FixTags.ExecType), Field(message, FixTags.OrdStatus), Field(message, FixTags.OrderID), Field(message, FixTags.LeavesQty)));
        Assert.Equal("Fill-or-kill order could not be filled completely: killed", Field(message, FixTags.Text));
    }

    [Theory]
    [InlineData(RejectReason.UnsupportedOrderInstruction, "11")]
    [InlineData(RejectReason.PriceMissing, "99")]
    public void Gateway_refusals_CarryTheirOrdRejReasonAndText(RejectReason reason, string ordRejReason)
    {
        EngineEvent e = Event(EventType.Rejected);
        (e.OrderId, e.LeavesQuantity, e.RejectReason) = (0, 0, reason);

        FixMessage message = EncodeAndParse(e, out _);

        Assert.Equal(("8", ordRejReason), (Field(message, FixTags.OrdStatus), Field(message, FixTags.OrdRejReason)));
        Assert.False(string.IsNullOrEmpty(Field(message, FixTags.Text)));
    }

    [Theory]
    [InlineData(RejectReason.UnknownInstrument, "1")]
    [InlineData(RejectReason.UnknownOrder, "5")]
    [InlineData(RejectReason.DuplicateClOrdId, "6")]
    [InlineData(RejectReason.PriceOutOfBand, "99")]
    [InlineData(RejectReason.ClOrdIdCapacityExceeded, "99")]
    public void Reject_CarriesOrdRejReasonAndText(RejectReason reason, string ordRejReason)
    {
        EngineEvent e = Event(EventType.Rejected);
        e.OrderId = 0;
        e.LeavesQuantity = 0;
        e.RejectReason = reason;

        FixMessage message = EncodeAndParse(e, out _);

        Assert.Equal("NONE", Field(message, FixTags.OrderID));
        Assert.Equal("8", Field(message, FixTags.ExecType));
        Assert.Equal("8", Field(message, FixTags.OrdStatus));
        Assert.Equal(ordRejReason, Field(message, FixTags.OrdRejReason));
        Assert.Equal(FixTestMessages.Show(RejectTexts.For(reason)), Field(message, FixTags.Text));
    }

    [Fact]
    public void MarketOrder_HasNoPrice()
    {
        EngineEvent e = Event(EventType.Accepted);
        e.OrderType = OrderType.Market;
        e.Price = 0;
        Assert.False(EncodeAndParse(e, out _).Has(FixTags.Price));
    }

    [Fact]
    public void CancelRejectedEvent_IsNotAnExecutionReport()
    {
        EngineEvent e = Event(EventType.CancelRejected);
        Assert.Throws<ArgumentOutOfRangeException>(() => ExecutionReportEncoder.Encode(new byte[1024], new FixHeader("A"u8, "B"u8, 1, 0), e, "AAPL"u8, 4));
        e.Type = (EventType)8;
        Assert.Throws<ArgumentOutOfRangeException>(() => ExecutionReportEncoder.Encode(new byte[1024], new FixHeader("A"u8, "B"u8, 1, 0), e, "AAPL"u8, 4));
    }

    [Fact]
    public void OrderStatus_IsAnOrderStatusReportOfTheCurrentState_EncodedExactly()
    {
        // A possible resend of an order 500 of 2000 filled: ExecType I with its OrderID, OrdStatus and quantities, no
        // LastPx/LastQty, and ExecID 0 as FIX 4.4 defines it for an Order Status report.
        EngineEvent e = Event(EventType.OrderStatus);
        e.LeavesQuantity = 1500;
        e.CumulativeQuantity = 500;
        e.CumulativeNotional = 500 * 1_434_200L;

        EncodeAndParse(e, out string wire);

        string expected = FixTestMessages.Show(FixTestMessages.Wrap(
            "35=8|49=TS|56=CLIENT1|34=9|52=20240315-14:30:00.005|37=42|17=0|150=I|39=1|11=C056|54=1|55=AAPL|40=2|38=2000|44=143.42|" +
            "151=1500|14=500|6=143.42|60=20240315-14:30:00.005|"));
        Assert.Equal(expected, wire);
    }

    [Fact]
    public void Reject_OfADuplicateOfALiveOrder_CarriesThatOrdersStatus_EncodedExactly()
    {
        // FIX 4.4 Appendix D, "Poss resend and duplicate ClOrdID": the reject of the new order combined with the status
        // of the live one, so OrdStatus is the live order's (New), not Rejected.
        EngineEvent e = Event(EventType.Rejected);
        e.RejectReason = RejectReason.DuplicateClOrdId;

        EncodeAndParse(e, out string wire);

        string expected = FixTestMessages.Show(FixTestMessages.Wrap(
            "35=8|49=TS|56=CLIENT1|34=9|52=20240315-14:30:00.005|37=42|17=1111|150=8|39=0|11=C056|54=1|55=AAPL|40=2|38=2000|44=143.42|" +
            "151=2000|14=0|6=0|103=6|58=Duplicate ClOrdID|60=20240315-14:30:00.005|"));
        Assert.Equal(expected, wire);
    }
}
