using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Xunit;
using static Exchange.Fix.Tests.Codec.DataFieldTestData;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// A DATA field whose LENGTH field does not describe it is a session Reject (FIX 4.4 SessionRejectReason 373):
/// a count that is not an integer is 6; a count that is not positive, or whose bytes do not end at an SOH before the
/// CheckSum, is 5 (RefTagID = the LENGTH tag, whose value is the wrong one); a LENGTH field not immediately followed
/// by its DATA field, or a DATA field without its LENGTH field just before it, is 14 ("must immediately precede").
/// </summary>
public class DataFieldInvalidCasesTest
{
    private const SessionRejectReason Value = SessionRejectReason.ValueIsIncorrect;
    private const SessionRejectReason Format = SessionRejectReason.IncorrectDataFormat;
    private const SessionRejectReason Order = SessionRejectReason.TagSpecifiedOutOfRequiredOrder;
    private const string Order54 = FixTestMessages.NewOrderBody;

    public static TheoryData<string, int, SessionRejectReason> InvalidMessages => new()
    {
        { Order54 + "354=1|355=ab|cd|", 354, Value },                          // too short: an SOH inside, not after
        { Order54 + "354=2|355=abcd|", 354, Value },                           // too short, no SOH in the value
        { Order54 + "354=4|355=ab|cd|", 354, Value },                          // too short by the SOH inside
        { Order54 + "354=9|355=ab|cd|", 354, Value },                          // too long: runs into CheckSum
        { Order54 + "354=12|355=ab|cd|", 354, Value },                         // too long: would end at CheckSum's SOH
        { Order54 + "354=999|355=abc|", 354, Value },                          // past the end of the message
        { Order54 + "354=7|355=ab|cd|59=0|", 354, Value },                     // too long by part of the next field
        { Order54 + "354=x|355=ab|cd|", 354, Format },                         // not a number
        { Order54 + "354=1.5|355=a|b|", 354, Format },
        { Order54 + "354=-2|355=ab|", 354, Value },                            // negative
        { Order54 + "354=0|355=ab|", 354, Value },                             // zero: LENGTH must be positive
        { Order54 + "354=99999999999999999999|355=ab|cd|", 354, Value },       // overflows
        { Order54 + "355=ab|cd|", 355, Order },                                // DATA without its LENGTH
        { Order54 + "355=abc|", 355, Order },
        { Order54 + "355=abc|354=3|", 355, Order },                            // LENGTH after its DATA
        { Order54 + "354=3|58=abc|355=xyz|", 354, Order },                     // something between LENGTH and DATA
        { Order54 + "354=3|", 354, Order },                                    // LENGTH without its DATA
        { Order54 + "354=3|3555=abc|", 354, Order },                           // a tag that only starts like the DATA tag
        { Order54 + "95=3|355=abc|", 95, Order },                              // another DATA field's LENGTH
        { LogonWithRawData("ab").Replace("95=2", "95=1", StringComparison.Ordinal), 95, Value },
        { LogonWithRawData("a|b").Replace("95=3", "95=03x", StringComparison.Ordinal), 95, Format },
        { NewOrderWithHeaderAndTrailerData("a|b|c", "x", "s").Replace("90=5", "90=4", StringComparison.Ordinal), 90, Value }, // header
        { NewOrderWithHeaderAndTrailerData("s", "<x>|</x>", "s").Replace("212=8", "212=9", StringComparison.Ordinal), 212, Value },
        { NewOrderWithHeaderAndTrailerData("s", "x", "ab|c").Replace("93=4|", "93=3|", StringComparison.Ordinal), 93, Value },   // trailer
        { NewOrderWithHeaderAndTrailerData("s", "x", "a|b").Replace("93=3|", string.Empty, StringComparison.Ordinal), 89, Order },
        { NewOrderWithHeaderAndTrailerData("a|b", "x", "s").Replace("90=3|", string.Empty, StringComparison.Ordinal), 91, Order },
    };

    [Theory]
    [MemberData(nameof(InvalidMessages))]
    public void BadDataFields_AreRejected_WithTheRightTagAndReason_EveryTime(string body, int refTag, SessionRejectReason reason)
    {
        byte[] frame = FixTestMessages.Wrap(body);
        var message = new FixMessage();
        for (int time = 0; time < 3; time++)
        {
            Assert.False(message.Parse(frame, FixDictionary.Fix44), body);
            Assert.Equal(FixFieldError.Of(refTag, reason), message.Validation);
        }

        var plain = new FixMessage();
        Assert.False(plain.Parse(frame));
        Assert.Equal(FixFieldError.Of(refTag, reason), FixDictionary.Fix44.Validate(plain));
    }

    [Theory]
    [MemberData(nameof(InvalidMessages))]
    public void BadDataFields_StillLeaveMsgTypeAndMsgSeqNumForTheReject(string body, int refTag, SessionRejectReason reason)
    {
        var message = new FixMessage();
        message.Parse(FixTestMessages.Wrap(body), FixDictionary.Fix44);

        Assert.Equal(FixFieldError.Of(refTag, reason), message.Validation);
        Assert.NotEqual(FixMsgType.Other, message.MsgTypeKind);
        Assert.Equal(FieldStatus.Ok, message.ReadMsgSeqNum(out int seqNum));
        Assert.True(seqNum > 0);
    }

    [Fact]
    public void ACountThatEndsAtAnSohInsideTheValue_LeavesTheRestToBeTokenizedAsFields()
    {
        // "ab|" is a well-delimited value of 3 bytes; nothing on the wire says the SOH after it belongs to the value.
        // The rest, "cd", is then a field without '=': still a Reject, for the bytes that are really malformed.
        var message = new FixMessage();
        Assert.False(message.Parse(FixTestMessages.Wrap(Order54 + "354=3|355=ab||cd|"), FixDictionary.Fix44));
        Assert.Equal(FixFieldError.Of(0, SessionRejectReason.InvalidTagNumber), message.Validation);
        Assert.Equal("ab|", FixTestMessages.Show(message.GetSpan(355)));
    }

    [Fact]
    public void APlannedLayout_StillRejectsACountThatDoesNotMatch()
    {
        // Without an SOH in the value the wrong count gives the same tag sequence as the clean message, so only the
        // tokenizer can see it: neither the layout plan nor the guided parse may take it for the clean layout.
        var message = new FixMessage();
        byte[] good = FixTestMessages.Wrap(NewOrderWithEncodedText("abcd"));
        byte[] bad = FixTestMessages.Wrap(NewOrderWithEncodedText("abcd").Replace("354=4", "354=3", StringComparison.Ordinal));
        Assert.True(message.Parse(good, FixDictionary.Fix44));
        Assert.True(message.Parse(good, FixDictionary.Fix44));

        Assert.False(message.Parse(bad, FixDictionary.Fix44));
        Assert.Equal(FixFieldError.Of(354, Value), message.Validation);
        Assert.True(message.Parse(good, FixDictionary.Fix44));
    }
}
