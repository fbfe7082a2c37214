using System.Globalization;
using System.Text.RegularExpressions;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class NewOrderSingleReaderTests
{
    private static readonly InstrumentDirectory Instruments = FixTestMessages.Instruments();

    private static MappingResult Read(string body, out Command command)
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap(body)));
        return NewOrderSingleReader.Read(message, Instruments, ownerId: 3, receiveTime: 99, out command);
    }

    private static string With(int tag, string value) =>
        Regex.Replace(FixTestMessages.NewOrderBody, $@"\|{tag}=[^|]*\|", value.Length == 0 ? "|" : $"|{tag}={value}|");

    [Fact]
    public void LimitOrder_MapsEveryField()
    {
        Assert.Equal(MappingResult.Ok, Read(FixTestMessages.NewOrderBody, out Command command));

        Assert.Equal(CommandType.NewOrder, command.Type);
        Assert.Equal(0, command.InstrumentId);
        Assert.Equal(3, command.OwnerId);
        Assert.Equal(99, command.Timestamp);
        Assert.Equal(ClOrdId.From("ORD-1"), command.ClOrdId);
        Assert.Equal(Side.Buy, command.Side);
        Assert.Equal(OrderType.Limit, command.OrderType);
        Assert.Equal(TimeInForce.Day, command.TimeInForce);
        Assert.Equal(1_434_200, command.Price);
        Assert.Equal(100, command.Quantity);
    }

    [Theory]
    [InlineData("", false)]
    [InlineData("97=N|", false)]
    [InlineData("97=Y|", true)]
    [InlineData("43=Y|122=20240315-14:30:00.000|", true)]
    [InlineData("43=N|97=Y|", true)]
    public void PossResendOrPossDup_MarksThePossibleResend(string headerFields, bool possibleResend)
    {
        // Either header flag says the order may have arrived before, so the engine answers a live one with its status.
        string body = FixTestMessages.NewOrderBody.Replace("|11=ORD-1|", $"|{headerFields}11=ORD-1|", StringComparison.Ordinal);

        Assert.Equal(MappingResult.Ok, Read(body, out Command command));

        Assert.Equal(possibleResend, command.PossibleResend);
        Assert.Equal(ClOrdId.From("ORD-1"), command.ClOrdId);
    }

    [Fact]
    public void MarketOrder_IgnoresPrice_AndDefaultsTimeInForce()
    {
        string body = With(FixTags.OrdType, "1").Replace("|44=143.42|", "|", StringComparison.Ordinal).Replace("|59=0|", "|", StringComparison.Ordinal);
        Assert.True(Read(body, out Command command).IsOk);
        Assert.Equal(OrderType.Market, command.OrderType);
        Assert.Equal(0, command.Price);
        Assert.Equal(TimeInForce.Day, command.TimeInForce);
    }

    [Theory]
    [InlineData(FixTags.Symbol, "IBM", RejectReason.UnknownInstrument)]
    [InlineData(FixTags.Side, "5", RejectReason.InvalidSide)]
    [InlineData(FixTags.OrdType, "3", RejectReason.InvalidOrderType)]
    [InlineData(FixTags.TimeInForce, "6", RejectReason.InvalidTimeInForce)]
    [InlineData(FixTags.Price, "143.42001", RejectReason.PriceOffTick)]
    [InlineData(FixTags.OrderQty, "100.5", RejectReason.QuantityOffLot)]
    [InlineData(FixTags.OrderQty, "123456789012345678901", RejectReason.QuantityTooLarge)]
    [InlineData(FixTags.Price, "", RejectReason.PriceMissing)]
    public void BusinessProblems_GiveAnOrderReject_WithTheClOrdIdKept(int tag, string value, RejectReason reason)
    {
        MappingResult result = Read(With(tag, value), out Command command);

        Assert.Equal(MappingOutcome.BusinessReject, result.Outcome);
        Assert.Equal(reason, result.Reason);
        Assert.Equal(ClOrdId.From("ORD-1"), command.ClOrdId);
        Assert.False(result.Text.IsEmpty);
    }

    [Theory]
    [InlineData(FixTags.ClOrdID, "", SessionRejectReason.RequiredTagMissing)]
    [InlineData(FixTags.ClOrdID, "123456789012345678901234567890123", SessionRejectReason.ValueIsIncorrect)]
    [InlineData(FixTags.Symbol, "", SessionRejectReason.RequiredTagMissing)]
    [InlineData(FixTags.Side, "12", SessionRejectReason.IncorrectDataFormat)]
    [InlineData(FixTags.OrderQty, "ten", SessionRejectReason.IncorrectDataFormat)]
    [InlineData(FixTags.Price, "1,5", SessionRejectReason.IncorrectDataFormat)]
    public void StructuralProblems_GiveASessionReject(int tag, string value, SessionRejectReason reason)
    {
        MappingResult result = Read(With(tag, value), out _);

        Assert.Equal(MappingOutcome.SessionReject, result.Outcome);
        Assert.Equal(tag, result.RefTag);
        Assert.Equal(reason, result.SessionReason);
    }

    [Fact]
    public void ClOrdIdOfExactlyMaxLength_IsAccepted()
    {
        Assert.True(Read(With(FixTags.ClOrdID, new string('c', ClOrdId.MaxLength)), out Command command).IsOk);
        Assert.Equal(ClOrdId.MaxLength, command.ClOrdId.Length);
    }

    [Theory]
    [InlineData("18=6")] // ExecInst: participate, don't initiate (post-only)
    [InlineData("110=50")] // MinQty
    [InlineData("111=10")] // MaxFloor (iceberg)
    [InlineData("210=10")] // MaxShow
    [InlineData("99=140")] // StopPx
    [InlineData("126=20240315-20:00:00")] // ExpireTime
    [InlineData("211=0.01")] // PegOffsetValue
    [InlineData("388=0")] // DiscretionInst
    [InlineData("847=1")] // TargetStrategy
    [InlineData("423=1")] // PriceType percentage: Price would mean something else
    public void An_instruction_the_venue_does_not_carry_out_is_refused_not_ignored(string field)
    {
        MappingResult result = Read(FixTestMessages.NewOrderBody + field + "|", out Command command);

        Assert.Equal(MappingOutcome.BusinessReject, result.Outcome);
        Assert.Equal(RejectReason.UnsupportedOrderInstruction, result.Reason);
        Assert.Equal(int.Parse(field[..field.IndexOf('=', StringComparison.Ordinal)], CultureInfo.InvariantCulture), result.RefTag);
        Assert.Equal(ClOrdId.From("ORD-1"), command.ClOrdId);
    }

    [Fact]
    public void A_layout_found_free_of_instructions_is_remembered_but_never_one_with_a_price_type()
    {
        var message = new FixMessage();
        MappingResult ReadOn(string body) => ReadReusing(message, body);

        Assert.True(ReadOn(FixTestMessages.NewOrderBody).IsOk);
        Assert.True(ReadOn(FixTestMessages.NewOrderBody).IsOk);
        Assert.Equal(RejectReason.UnsupportedOrderInstruction, ReadOn(FixTestMessages.NewOrderBody + "18=6|").Reason);
        Assert.True(ReadOn(FixTestMessages.NewOrderBody).IsOk);

        // The same layout with PriceType 2 (per unit) then 1 (percentage): the first is fine, the second is not.
        Assert.True(ReadOn(FixTestMessages.NewOrderBody + "423=2|").IsOk);
        Assert.Equal(RejectReason.UnsupportedOrderInstruction, ReadOn(FixTestMessages.NewOrderBody + "423=1|").Reason);
        Assert.True(ReadOn(FixTestMessages.NewOrderBody + "423=2|").IsOk);
    }

    [Theory]
    [InlineData("167=FUT|200=202603", 200)] // a future on the symbol, not the stock
    [InlineData("65=WI", 65)] // SymbolSfx: when issued
    [InlineData("48=US0378331005|22=4", 48)] // SecurityID with its source
    [InlineData("207=XEUR", 207)] // another exchange's listing
    [InlineData("201=1|202=150", 201)] // an option's terms
    [InlineData("167=OPT", 167)]
    public void An_order_naming_more_of_its_instrument_than_the_symbol_is_refused_as_an_unknown_symbol(string fields, int refTag)
    {
        // Entered under the Symbol alone, it would trade the listed stock instead of the instrument the client meant.
        MappingResult result = Read(FixTestMessages.NewOrderBody + fields + "|", out _);

        Assert.Equal(MappingOutcome.BusinessReject, result.Outcome);
        Assert.Equal(RejectReason.UnknownInstrument, result.Reason);
        Assert.Equal(refTag, result.RefTag);
    }

    [Fact]
    public void Security_type_common_stock_is_accepted_and_its_layout_never_remembered()
    {
        var message = new FixMessage();
        MappingResult ReadOn(string body) => ReadReusing(message, body);

        Assert.True(ReadOn(FixTestMessages.NewOrderBody + "167=CS|").IsOk);
        Assert.True(ReadOn(FixTestMessages.NewOrderBody + "167=CS|").IsOk);
        Assert.Equal(RejectReason.UnknownInstrument, ReadOn(FixTestMessages.NewOrderBody + "167=FUT|").Reason);
    }

    [Theory]
    [InlineData("99999999999999999999")]
    [InlineData("922337203685477.5808")] // one unit past long.MaxValue at four decimals
    public void A_well_formed_price_too_large_to_represent_is_an_order_reject_outside_the_band(string price)
    {
        MappingResult result = Read(FixTestMessages.NewOrderBody.Replace("44=143.42", "44=" + price, StringComparison.Ordinal), out _);

        Assert.Equal(MappingOutcome.BusinessReject, result.Outcome);
        Assert.Equal(RejectReason.PriceOutOfBand, result.Reason);
        Assert.Equal(FixTags.Price, result.RefTag);
    }

    /// <summary>Reads <paramref name="body"/> through one reused message view, as a connection does (layouts are remembered on it).</summary>
    private static MappingResult ReadReusing(FixMessage message, string body)
    {
        Assert.True(message.Parse(FixTestMessages.Wrap(body)));
        return NewOrderSingleReader.Read(message, Instruments, ownerId: 3, receiveTime: 99, out _);
    }
}
