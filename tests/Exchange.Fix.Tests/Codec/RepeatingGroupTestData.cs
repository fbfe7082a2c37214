namespace Exchange.Fix.Tests.Codec;

/// <summary>Messages with repeating groups shared by the group validation tests ('|' is SOH).</summary>
internal static class RepeatingGroupTestData
{
    /// <summary>NoPartyIDs (453): PartyID 448 (delimiter), PartyIDSource 447, PartyRole 452, NoPartySubIDs 802.</summary>
    public const string TwoParties = "453=2|448=FIRM-A|447=D|452=1|448=TRADER-7|447=D|452=11|";

    /// <summary>Parties with a nested NoPartySubIDs (802: PartySubID 523 delimiter, PartySubIDType 803) in the first instance.</summary>
    public const string NestedParties = "453=2|448=FIRM-A|447=D|452=1|802=2|523=DESK-1|803=1|523=BOOK-9|803=2|448=TRADER-7|447=D|452=11|";

    public const string MarketDataHeader = "35=V|49=CLIENT1|56=VENUE|34=8|52=20240315-14:30:00.123|";

    /// <summary>MarketDataRequest with NoMDEntryTypes (267: 269) and NoRelatedSym (146: Instrument, Symbol 55 first).</summary>
    public const string MarketDataRequestBody = MarketDataHeader + "262=R1|263=1|264=5|267=2|269=0|269=1|146=2|55=MSFT|55=AAPL|";

    public static string NewOrderWith(string groups) => FixTestMessages.NewOrderBody + groups;
}
