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
    [InlineData(FixTags.Price, "", SessionRejectReason.RequiredTagMissing)]
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
}
