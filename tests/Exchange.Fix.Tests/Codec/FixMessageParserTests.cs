using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class FixMessageParserTests
{
    [Fact]
    public void HeaderAccessors_ReadTheSessionFields()
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap(
            "35=D|49=CLIENT1|56=VENUE|34=7|43=Y|52=20240315-14:30:00.123|122=20240315-14:29:00.000|11=A|")));

        Assert.Equal(FixMsgType.NewOrderSingle, message.MsgTypeKind);
        Assert.Equal("D", FixTestMessages.Show(message.MsgType));
        Assert.Equal("CLIENT1", FixTestMessages.Show(message.SenderCompId));
        Assert.Equal("VENUE", FixTestMessages.Show(message.TargetCompId));
        Assert.Equal(FieldStatus.Ok, message.ReadMsgSeqNum(out int seq));
        Assert.Equal(7, seq);
        Assert.True(message.PossDupFlag);
        Assert.Equal(FieldStatus.Ok, message.ReadSendingTime(out long sending));
        Assert.Equal(FieldTypeTestData.Nanos(2024, 3, 15, 14, 30, 0, 123_000_000), sending);
        Assert.Equal(FieldStatus.Ok, message.ReadOrigSendingTime(out long orig));
        Assert.Equal(sending - 60_123_000_000, orig);
    }

    [Fact]
    public void TypedGetters_ReportMissingAndMalformedSeparately()
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap("35=D|34=x|44=1.25|54=1|60=bad|7001=ext|")));

        Assert.Equal(FieldStatus.Missing, message.ReadInt(FixTags.OrderQty, out _));
        Assert.Equal(FieldStatus.Malformed, message.ReadInt(FixTags.MsgSeqNum, out _));
        Assert.False(message.PossDupFlag);
        Assert.True(message.TryGetPrice(FixTags.Price, 2, out long price));
        Assert.Equal(125, price);
        Assert.Equal(FieldStatus.OffScale, message.ReadPrice(FixTags.Price, 1, out _));
        Assert.True(message.TryGetChar(FixTags.Side, out byte side));
        Assert.Equal((byte)'1', side);
        Assert.False(message.TryGetTimestamp(FixTags.TransactTime, out _));
        Assert.Equal("ext", FixTestMessages.Show(message.GetSpan(7001)));
        Assert.True(message.GetSpan(7002).IsEmpty);
    }

    [Fact]
    public void RepeatedTags_AreMarked_AndLookupReturnsTheFirst()
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap("35=V|55=AAPL|55=MSFT|9001=a|9001=b|")));

        Assert.Equal("AAPL", FixTestMessages.Show(message.GetSpan(FixTags.Symbol)));
        Assert.Equal("a", FixTestMessages.Show(message.GetSpan(9001)));
        int repeats = 0;
        for (int i = 0; i < message.FieldCount; i++)
        {
            repeats += message.IsRepeatAt(i) ? 1 : 0;
        }

        Assert.Equal(2, repeats);
    }

    [Theory]
    [InlineData("35=D|58=|", 58, SessionRejectReason.TagSpecifiedWithoutValue)]
    [InlineData("35=D|5x8=a|", 0, SessionRejectReason.InvalidTagNumber)]
    [InlineData("35=D|=a|", 0, SessionRejectReason.InvalidTagNumber)]
    [InlineData("35=D|0=a|", 0, SessionRejectReason.InvalidTagNumber)]
    [InlineData("35=D|058=a|", 0, SessionRejectReason.InvalidTagNumber)]
    [InlineData("35=D|58|", 0, SessionRejectReason.InvalidTagNumber)]
    [InlineData("35=D|58=ab|cd|", 58, SessionRejectReason.NonDataValueIncludesFieldDelimiter)]
    [InlineData("35=D|58=ab|c d|1=x|", 58, SessionRejectReason.NonDataValueIncludesFieldDelimiter)]
    [InlineData("35=D|58=ab||", 0, SessionRejectReason.InvalidTagNumber)]
    public void SyntaxProblems_AreReported_WithTheTagToReject(string body, int tag, SessionRejectReason reason)
    {
        var message = new FixMessage();
        Assert.False(message.Parse(FixTestMessages.Wrap(body)));
        Assert.Equal(FixFieldError.Of(tag, reason), message.Error);
        Assert.Equal(FixMsgType.NewOrderSingle, message.MsgTypeKind);
    }

    [Fact]
    public void Reuse_ForgetsThePreviousMessage()
    {
        var message = new FixMessage();
        Assert.False(message.Parse(FixTestMessages.Wrap("35=D|58=|11=X|")));
        Assert.True(message.Parse(FixTestMessages.Wrap("35=0|")));

        Assert.False(message.Error.IsError);
        Assert.False(message.Has(FixTags.ClOrdID));
        Assert.Equal(FixMsgType.Heartbeat, message.MsgTypeKind);
    }

    [Fact]
    public void TooManyFields_IsAnError_NotAnOverflow()
    {
        var message = new FixMessage(maxFields: 8);
        Assert.False(message.Parse(FixTestMessages.Wrap("35=0|1=a|2=b|3=c|4=d|5=e|6=f|")));
        Assert.Equal(SessionRejectReason.Other, message.Error.Reason);
        Assert.Equal(8, message.FieldCount);
    }
}
