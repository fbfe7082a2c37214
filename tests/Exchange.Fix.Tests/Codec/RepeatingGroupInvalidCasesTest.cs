using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Xunit;
using static Exchange.Fix.Tests.Codec.RepeatingGroupTestData;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// Repeating-group errors (FIX 4.4 SessionRejectReason 15 and 16): a NumInGroup value other than the instances that
/// follow is 16 with RefTagID = the NumInGroup tag; a member before its instance's delimiter, out of the dictionary's
/// member order (including a member repeated within one instance) or with no NumInGroup before it is 15 with
/// RefTagID = that member; an instance without one of the group's required members is 1 with RefTagID = that member.
/// </summary>
public class RepeatingGroupInvalidCasesTest
{
    private const SessionRejectReason Count = SessionRejectReason.IncorrectNumInGroupCount;
    private const SessionRejectReason Order = SessionRejectReason.RepeatingGroupFieldsOutOfOrder;
    private const SessionRejectReason Missing = SessionRejectReason.RequiredTagMissing;

    public static TheoryData<string, int, SessionRejectReason> InvalidMessages => new()
    {
        { NewOrderWith(TwoParties.Replace("453=2", "453=3", StringComparison.Ordinal)), 453, Count },
        { NewOrderWith(TwoParties.Replace("453=2", "453=1", StringComparison.Ordinal)), 453, Count },
        { NewOrderWith("453=0|448=FIRM-A|"), 453, Count },
        { NewOrderWith("453=1|447=D|448=FIRM-A|452=1|"), 447, Order },                  // member before the delimiter
        { NewOrderWith("453=1|448=FIRM-A|452=1|447=D|"), 447, Order },                  // members out of dictionary order
        { NewOrderWith("453=1|448=FIRM-A|447=D|447=D|"), 447, Order },                  // a member twice in one instance
        { NewOrderWith("448=FIRM-A|447=D|"), 448, Order },                              // member without NoPartyIDs
        { NewOrderWith(NestedParties.Replace("802=2", "802=3", StringComparison.Ordinal)), 802, Count },
        { NewOrderWith("453=1|448=FIRM-A|802=1|803=1|523=DESK-1|"), 803, Order },       // nested member before its delimiter
        { NewOrderWith("453=1|448=FIRM-A|523=DESK-1|"), 523, Order },                   // nested member without NoPartySubIDs
        { CrossWith("552=2|54=1|38=100|54=2|11=B|38=100|"), 11, Missing },               // first instance lacks ClOrdID
        { CrossWith("552=2|54=1|11=A|38=100|54=2|38=100|"), 11, Missing },               // last instance lacks it
        { CrossWith("552=1|54=1|453=1|448=FIRM-A|38=100|"), 11, Missing },               // with a nested group inside
        { MarketDataRequestBody.Replace("146=2", "146=3", StringComparison.Ordinal), 146, Count },
        { MarketDataRequestBody.Replace("267=2", "267=1", StringComparison.Ordinal), 267, Count },
    };

    [Theory]
    [MemberData(nameof(InvalidMessages))]
    public void GroupErrors_AreRejected_WithTheRightTagAndReason(string body, int refTag, SessionRejectReason reason)
    {
        var message = new FixMessage();
        Assert.False(message.Parse(FixTestMessages.Wrap(body), FixDictionary.Fix44));
        Assert.Equal(FixFieldError.Of(refTag, reason), message.Validation);
    }

    [Theory]
    [MemberData(nameof(InvalidMessages))]
    public void GroupErrors_GetTheSameVerdict_EveryTimeOnOneConnection(string body, int refTag, SessionRejectReason reason)
    {
        var message = new FixMessage();
        for (int time = 0; time < 3; time++)
        {
            Assert.False(message.Parse(FixTestMessages.Wrap(body), FixDictionary.Fix44));
            Assert.Equal(FixFieldError.Of(refTag, reason), message.Validation);
        }
    }

    /// <summary>
    /// The layout plan of a clean message must not accept a bad count just because the tag sequence matches: the
    /// NumInGroup values are checked against the counts the plan recorded.
    /// </summary>
    [Theory]
    [InlineData("453=2", "453=3", 453)]
    [InlineData("453=2", "453=0", 453)]
    [InlineData("802=2", "802=1", 802)]
    public void APlannedLayout_StillRejectsABadCount(string good, string bad, int refTag)
    {
        var message = new FixMessage();
        string body = NewOrderWith(NestedParties);
        Assert.True(message.Parse(FixTestMessages.Wrap(body), FixDictionary.Fix44));
        Assert.True(message.Parse(FixTestMessages.Wrap(body), FixDictionary.Fix44));

        Assert.False(message.Parse(FixTestMessages.Wrap(body.Replace(good, bad, StringComparison.Ordinal)), FixDictionary.Fix44));
        Assert.Equal(FixFieldError.Of(refTag, Count), message.Validation);

        Assert.True(message.Parse(FixTestMessages.Wrap(body), FixDictionary.Fix44));
    }

    [Fact]
    public void AGroupStillOpenAtTheEndOfTheMessage_IsCounted()
    {
        // No CheckSum to close the group: the walk's end closes it.
        var message = new FixMessage();
        message.Parse(FixTestMessages.Raw("8=FIX.4.4|9=5|" + NewOrderWith("453=2|448=FIRM-A|")));
        Assert.Equal(FixFieldError.Of(453, Count), FixDictionary.Fix44.Validate(message));
    }

    [Fact]
    public void ABadValueInsideAGroup_IsReportedBeforeItsCount_WalkedAndPlanned()
    {
        // The count is known only where the group ends, so an earlier bad value (PartyIDSource 447=? not in its enum)
        // is the first problem in wire order, on the walk and on the plan of the clean layout alike.
        var message = new FixMessage();
        string good = NewOrderWith(TwoParties);
        string bad = good.Replace("453=2", "453=3", StringComparison.Ordinal).Replace("447=D|452=11", "447=?|452=11", StringComparison.Ordinal);
        var expected = FixFieldError.Of(447, SessionRejectReason.ValueIsIncorrect);

        Assert.False(message.Parse(FixTestMessages.Wrap(bad), FixDictionary.Fix44));
        Assert.Equal(expected, message.Validation);
        Assert.True(message.Parse(FixTestMessages.Wrap(good), FixDictionary.Fix44));
        Assert.False(message.Parse(FixTestMessages.Wrap(bad), FixDictionary.Fix44));
        Assert.Equal(expected, message.Validation);
    }
}
