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

    /// <summary>
    /// NewOrderCross (35=s) up to its NoSides group (552), whose instances must each hold Side 54 (delimiter) and
    /// ClOrdID 11 (required member); <see cref="CrossTail"/> follows the group.
    /// </summary>
    public const string CrossHead = "35=s|49=CLIENT1|56=VENUE|34=8|52=20240315-14:30:00.123|548=X1|549=1|550=0|";

    public const string CrossTail = "55=AAPL|60=20240315-14:30:00.120|40=2|44=1.5|";

    public const string TwoCrossSides = "552=2|54=1|11=A|38=100|54=2|11=B|38=100|";

    public static string CrossWith(string sides) => CrossHead + sides + CrossTail;

    public static string NewOrderWith(string groups) => FixTestMessages.NewOrderBody + groups;
}
