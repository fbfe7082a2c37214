using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class FixDictionaryValidationTests
{
    private const string Header = "35=D|49=CLIENT1|56=VENUE|34=7|52=20240315-14:30:00.123|";

    private static FixFieldError Validate(string body)
    {
        var message = new FixMessage();
        message.Parse(FixTestMessages.Wrap(body));
        return FixDictionary.Fix44.Validate(message);
    }

    [Fact]
    public void ValidNewOrderSingle_Passes()
    {
        Assert.Equal(FixFieldError.None, Validate(FixTestMessages.NewOrderBody));
    }

    [Theory]
    [InlineData("11=A|55=AAPL|60=20240315-14:30:00.120|38=100|40=2|", FixTags.Side)]
    [InlineData("55=AAPL|54=1|60=20240315-14:30:00.120|38=100|40=2|", FixTags.ClOrdID)]
    [InlineData("11=A|55=AAPL|54=1|38=100|40=2|", FixTags.TransactTime)]
    [InlineData("11=A|55=AAPL|54=1|60=20240315-14:30:00.120|38=100|", FixTags.OrdType)]
    public void RequiredTagMissing_IsDetected(string body, int missing)
    {
        Assert.Equal(FixFieldError.Of(missing, SessionRejectReason.RequiredTagMissing), Validate(Header + body));
    }

    [Fact]
    public void MissingSessionHeaderTag_IsDetected()
    {
        Assert.Equal(
            FixFieldError.Of(FixTags.MsgSeqNum, SessionRejectReason.RequiredTagMissing),
            Validate("35=0|49=CLIENT1|56=VENUE|52=20240315-14:30:00.123|"));
    }

    [Fact]
    public void TagNotDefinedForMessageType_IsDetected()
    {
        // LastPx (31) exists in FIX 4.4 but not in NewOrderSingle.
        Assert.Equal(
            FixFieldError.Of(FixTags.LastPx, SessionRejectReason.TagNotDefinedForMessageType),
            Validate(FixTestMessages.NewOrderBody + "31=1.5|"));
    }

    [Theory]
    [InlineData("54=Z|", FixTags.Side)]
    [InlineData("40=X|", FixTags.OrdType)]
    [InlineData("59=9|", FixTags.TimeInForce)]
    public void BadEnumValue_IsValueIncorrect(string replacement, int tag)
    {
        string body = System.Text.RegularExpressions.Regex.Replace(FixTestMessages.NewOrderBody, $@"\|{tag}=[^|]*\|", "|" + replacement);
        Assert.Equal(FixFieldError.Of(tag, SessionRejectReason.ValueIsIncorrect), Validate(body));
    }

    [Theory]
    [InlineData("38=abc|", FixTags.OrderQty)]
    [InlineData("44=1.2.3|", FixTags.Price)]
    [InlineData("60=20241399-00:00:00|", FixTags.TransactTime)]
    [InlineData("60=yesterday|", FixTags.TransactTime)]
    public void BadValueFormat_IsDetected(string replacement, int tag)
    {
        string body = System.Text.RegularExpressions.Regex.Replace(FixTestMessages.NewOrderBody, $@"\|{tag}=[^|]*\|", "|" + replacement);
        FixFieldError error = Validate(body);
        Assert.Equal(tag, error.Tag);
        Assert.True(error.Reason is SessionRejectReason.IncorrectDataFormat or SessionRejectReason.ValueIsIncorrect, error.ToString());
    }

    [Fact]
    public void RepeatedTagOutsideAGroup_IsDetected_ButGroupRepeatsAreFine()
    {
        Assert.Equal(
            FixFieldError.Of(FixTags.Symbol, SessionRejectReason.TagAppearsMoreThanOnce),
            Validate(FixTestMessages.NewOrderBody + "55=MSFT|"));

        // PartyID (448) repeats inside the NoPartyIDs (453) group of the Parties component.
        Assert.Equal(FixFieldError.None, Validate(FixTestMessages.NewOrderBody + "453=2|448=A|447=D|452=1|448=B|447=D|452=3|"));
    }

    [Fact]
    public void HeaderTagAfterBody_IsOutOfOrder()
    {
        Assert.Equal(
            FixFieldError.Of(FixTags.PossDupFlag, SessionRejectReason.TagSpecifiedOutOfRequiredOrder),
            Validate(FixTestMessages.NewOrderBody + "43=Y|"));
    }

    [Fact]
    public void FieldAfterTheChecksum_IsOutOfOrder()
    {
        var message = new FixMessage();
        byte[] wire = [.. FixTestMessages.Wrap(FixTestMessages.NewOrderBody), .. FixTestMessages.Raw("58=late|")];
        Assert.True(message.Parse(wire));
        Assert.Equal(FixFieldError.Of(FixTags.Text, SessionRejectReason.TagSpecifiedOutOfRequiredOrder), FixDictionary.Fix44.Validate(message));
    }

    [Fact]
    public void StandardPrefixOutOfPlace_IsOutOfOrder()
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Raw("8=FIX.4.4|35=D|9=5|10=000|")));
        Assert.Equal(FixFieldError.Of(FixTags.MsgType, SessionRejectReason.TagSpecifiedOutOfRequiredOrder), FixDictionary.Fix44.Validate(message));
    }

    [Fact]
    public void UndefinedTag_IsInvalidTagNumber()
    {
        Assert.Equal(FixFieldError.Of(9999, SessionRejectReason.InvalidTagNumber), Validate(FixTestMessages.NewOrderBody + "9999=x|"));
    }

    [Fact]
    public void UnknownMsgType_IsInvalidMsgType_AndAdminTypesAreKnown()
    {
        Assert.Equal(
            FixFieldError.Of(FixTags.MsgType, SessionRejectReason.InvalidMsgType),
            Validate("35=ZZ|49=CLIENT1|56=VENUE|34=7|52=20240315-14:30:00.123|"));
        Assert.True(FixDictionary.Fix44.IsAdminMsgType("A"u8));
        Assert.True(FixDictionary.Fix44.IsAdminMsgType("5"u8));
        Assert.False(FixDictionary.Fix44.IsAdminMsgType("D"u8));
        Assert.True(FixDictionary.Fix44.IsDefinedMsgType("AE"u8));
        Assert.False(FixDictionary.Fix44.IsDefinedMsgType("ZZ"u8));
    }

    [Theory]
    [InlineData("35=A|49=C|56=V|34=1|52=20240315-14:30:00.000|98=0|108=30|")]
    [InlineData("35=0|49=C|56=V|34=1|52=20240315-14:30:00.000|")]
    [InlineData("35=1|49=C|56=V|34=1|52=20240315-14:30:00.000|112=T1|")]
    [InlineData("35=2|49=C|56=V|34=1|52=20240315-14:30:00.000|7=1|16=0|")]
    [InlineData("35=4|49=C|56=V|34=1|52=20240315-14:30:00.000|123=Y|36=5|")]
    [InlineData("35=5|49=C|56=V|34=1|52=20240315-14:30:00.000|58=bye|")]
    [InlineData("35=3|49=C|56=V|34=1|52=20240315-14:30:00.000|45=3|373=1|")]
    [InlineData("35=F|49=C|56=V|34=1|52=20240315-14:30:00.000|41=A|11=B|55=AAPL|54=1|60=20240315-14:30:00.000|")]
    [InlineData("35=G|49=C|56=V|34=1|52=20240315-14:30:00.000|41=A|11=B|55=AAPL|54=1|60=20240315-14:30:00.000|38=5|40=2|44=1|")]
    [InlineData("35=V|49=C|56=V|34=1|52=20240315-14:30:00.000|262=R1|263=1|264=0|267=2|269=0|269=1|146=2|55=AAPL|55=MSFT|")]
    public void HandledMessageTypes_Validate(string body)
    {
        Assert.Equal(FixFieldError.None, Validate(body));
    }
}
