using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Mapping;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class RejectEncoderTests
{
    private static readonly long Time = FieldTypeTestData.Nanos(2024, 3, 15, 14, 30, 0);

    private static string CheckValid(byte[] buffer, int length)
    {
        var message = new FixMessage();
        Assert.True(message.Parse(buffer.AsSpan(0, length)));
        Assert.Equal(FixFieldError.None, FixDictionary.Fix44.Validate(message));
        return FixTestMessages.Show(buffer.AsSpan(0, length));
    }

    /// <summary>The event as an OrderCancelReject from V to C (MsgSeqNum 4), checked against the dictionary.</summary>
    private static string EncodeCancelReject(in EngineEvent e)
    {
        var buffer = new byte[512];
        return CheckValid(buffer, OrderCancelRejectEncoder.Encode(buffer, new FixHeader("V"u8, "C"u8, 4, Time), e));
    }

    [Fact]
    public void OrderCancelReject_ForUnknownOrder()
    {
        var e = new EngineEvent
        {
            Type = EventType.CancelRejected,
            SourceCommand = CommandType.Replace,
            RejectReason = RejectReason.UnknownOrder,
            Timestamp = Time,
            ClOrdId = ClOrdId.From("N2"),
            OrigClOrdId = ClOrdId.From("N1"),
        };
        string wire = EncodeCancelReject(e);

        Assert.Equal(
            FixTestMessages.Show(FixTestMessages.Wrap(
                "35=9|49=V|56=C|34=4|52=20240315-14:30:00.000|37=NONE|11=N2|41=N1|39=8|434=2|102=1|58=Unknown order|60=20240315-14:30:00.000|")),
            wire);
    }

    [Theory]
    [InlineData(CommandType.Cancel, CancelReason.None, "39=2|434=1|102=0|58=Too late to cancel: the order has filled")]
    [InlineData(CommandType.Replace, CancelReason.ReplacedToFilled, "39=2|434=2|102=0|58=Too late to cancel: the order has filled")]
    [InlineData(CommandType.Cancel, CancelReason.Requested, "39=4|434=1|102=0|58=Too late to cancel: the order has been canceled")]
    [InlineData(CommandType.Replace, CancelReason.ImmediateOrCancelRemainder, "39=4|434=2|102=0|58=Too late to cancel: the order has been canceled")]
    [InlineData(CommandType.Cancel, CancelReason.Expired, "39=C|434=1|102=0|58=Too late to cancel: the order has expired")]
    public void OrderCancelReject_TooLateToCancel_ReportsTheEndedOrderAndHowItEnded(CommandType request, CancelReason endReason, string fields)
    {
        var e = new EngineEvent
        {
            Type = EventType.CancelRejected,
            SourceCommand = request,
            RejectReason = RejectReason.TooLateToCancel,
            CancelReason = endReason,
            OrderId = 77,
            Timestamp = Time,
            ClOrdId = ClOrdId.From("N2"),
            OrigClOrdId = ClOrdId.From("N1"),
        };
        string wire = EncodeCancelReject(e);

        Assert.Equal(
            FixTestMessages.Show(FixTestMessages.Wrap(
                $"35=9|49=V|56=C|34=4|52=20240315-14:30:00.000|37=77|11=N2|41=N1|{fields}|60=20240315-14:30:00.000|")),
            wire);
    }

    [Theory]
    [InlineData(CommandType.Cancel, RejectReason.DuplicateClOrdId, "434=1|102=6|58=Duplicate ClOrdID")]
    [InlineData(CommandType.Replace, RejectReason.DuplicateClOrdId, "434=2|102=6|58=Duplicate ClOrdID")]
    [InlineData(CommandType.Replace, RejectReason.ClOrdIdCapacityExceeded, "434=2|102=99|58=Venue's ClOrdID capacity for the day exhausted")]
    public void OrderCancelReject_ForAnIdTheDayCannotTake(CommandType request, RejectReason reason, string fields)
    {
        var e = new EngineEvent
        {
            Type = EventType.CancelRejected,
            SourceCommand = request,
            RejectReason = reason,
            Timestamp = Time,
            OrderId = 7,
            OrderQuantity = 100,
            LeavesQuantity = 100,
            ClOrdId = ClOrdId.From("N2"),
            OrigClOrdId = ClOrdId.From("N1"),
        };
        string wire = EncodeCancelReject(e);

        Assert.Equal(
            FixTestMessages.Show(FixTestMessages.Wrap(
                $"35=9|49=V|56=C|34=4|52=20240315-14:30:00.000|37=7|11=N2|41=N1|39=0|{fields}|60=20240315-14:30:00.000|")),
            wire);
    }

    [Fact]
    public void BusinessMessageReject_ForUnsupportedType()
    {
        var buffer = new byte[512];
        string wire = CheckValid(buffer, BusinessMessageRejectEncoder.Encode(
            buffer, new FixHeader("V"u8, "C"u8, 5, Time), 17, "AE"u8, BusinessRejectReason.UnsupportedMessageType, "Unsupported"u8));

        Assert.Equal(
            FixTestMessages.Show(FixTestMessages.Wrap("35=j|49=V|56=C|34=5|52=20240315-14:30:00.000|45=17|372=AE|380=3|58=Unsupported|")),
            wire);
    }

    [Fact]
    public void SessionReject_CarriesRefTagAndReason()
    {
        var buffer = new byte[512];
        string wire = CheckValid(buffer, SessionRejectEncoder.Encode(
            buffer, new FixHeader("V"u8, "C"u8, 6, Time), 9, FixTags.Side, "D"u8, SessionRejectReason.ValueIsIncorrect,
            RejectTexts.For(SessionRejectReason.ValueIsIncorrect)));

        Assert.Equal(
            FixTestMessages.Show(FixTestMessages.Wrap(
                "35=3|49=V|56=C|34=6|52=20240315-14:30:00.000|45=9|371=54|372=D|373=5|58=Value is incorrect (out of range) for this tag|")),
            wire);
    }
}
