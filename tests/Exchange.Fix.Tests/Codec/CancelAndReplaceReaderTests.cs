using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class CancelAndReplaceReaderTests
{
    private const string Header = "49=C|56=V|34=1|52=20240315-14:30:00.000|";
    private static readonly InstrumentDirectory Instruments = FixTestMessages.Instruments();

    private static FixMessage Parse(string body)
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap(body)));
        return message;
    }

    [Fact]
    public void Cancel_MapsIdsSideAndInstrument()
    {
        FixMessage message = Parse("35=F|" + Header + "41=OLD|11=NEW|55=MSFT|54=2|60=20240315-14:30:00.000|");
        Assert.True(OrderCancelRequestReader.Read(message, Instruments, 4, 77, out Command command).IsOk);

        Assert.Equal(CommandType.Cancel, command.Type);
        Assert.Equal(ClOrdId.From("NEW"), command.ClOrdId);
        Assert.Equal(ClOrdId.From("OLD"), command.OrigClOrdId);
        Assert.Equal(1, command.InstrumentId);
        Assert.Equal(Side.Sell, command.Side);
        Assert.Equal(4, command.OwnerId);
        Assert.Equal(77, command.Timestamp);
    }

    [Fact]
    public void Cancel_WithoutOrigClOrdId_IsASessionReject()
    {
        FixMessage message = Parse("35=F|" + Header + "11=NEW|55=MSFT|54=2|");
        MappingResult result = OrderCancelRequestReader.Read(message, Instruments, 4, 77, out _);
        Assert.Equal(MappingResult.Session(FixTags.OrigClOrdID, SessionRejectReason.RequiredTagMissing), result);
    }

    [Fact]
    public void Replace_MapsNewPriceAndQuantity_AtTheInstrumentsDecimals()
    {
        FixMessage message = Parse("35=G|" + Header + "41=OLD|11=NEW|55=MSFT|54=1|60=20240315-14:30:00.000|38=250|40=2|44=12.34|");
        Assert.True(OrderCancelReplaceRequestReader.Read(message, Instruments, 4, 77, out Command command).IsOk);

        Assert.Equal(CommandType.Replace, command.Type);
        Assert.Equal(1234, command.Price);
        Assert.Equal(250, command.Quantity);
        Assert.Equal(ClOrdId.From("OLD"), command.OrigClOrdId);
    }

    [Theory]
    [InlineData("40=2|44=12.34|", OrderType.Limit, (TimeInForce)0)]
    [InlineData("40=2|44=12.34|59=1|", OrderType.Limit, TimeInForce.GoodTillCancel)]
    [InlineData("40=2|44=12.34|59=0|", OrderType.Limit, TimeInForce.Day)]
    [InlineData("40=1|", OrderType.Market, (TimeInForce)0)]
    public void Replace_CarriesOrdTypeAndAnyTimeInForce_ForTheEngineToCompareWithTheOrder(string terms, OrderType type, TimeInForce timeInForce)
    {
        FixMessage message = Parse("35=G|" + Header + "41=OLD|11=NEW|55=MSFT|54=1|60=20240315-14:30:00.000|38=250|" + terms);
        Assert.True(OrderCancelReplaceRequestReader.Read(message, Instruments, 4, 77, out Command command).IsOk);

        Assert.Equal(type, command.OrderType);
        Assert.Equal(timeInForce, command.TimeInForce); // 0: not said, so unchanged
    }

    [Fact]
    public void Replace_WithAnUnsupportedTimeInForce_IsABusinessReject()
    {
        FixMessage message = Parse("35=G|" + Header + "41=OLD|11=NEW|55=MSFT|54=1|38=250|40=2|44=12.34|59=6|");

        Assert.Equal(MappingResult.Business(FixTags.TimeInForce, RejectReason.InvalidTimeInForce), OrderCancelReplaceRequestReader.Read(message, Instruments, 4, 77, out _));
    }

    [Fact]
    public void Replace_WithOffScalePrice_IsABusinessReject_ThatBecomesACancelRejectEvent()
    {
        FixMessage message = Parse("35=G|" + Header + "41=OLD|11=NEW|55=MSFT|54=1|38=250|40=2|44=12.345|");
        MappingResult result = OrderCancelReplaceRequestReader.Read(message, Instruments, 4, 77, out Command command);

        Assert.Equal(MappingResult.Business(FixTags.Price, RejectReason.PriceOffTick), result);
        RejectEvents.FromCommand(command, result.Reason, eventId: 5, out EngineEvent rejected);
        Assert.Equal(EventType.CancelRejected, rejected.Type);
        Assert.Equal(CommandType.Replace, rejected.SourceCommand);
        Assert.Equal(ClOrdId.From("NEW"), rejected.ClOrdId);
    }
}
