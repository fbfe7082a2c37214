using Exchange.Core.Commands;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Mapping;
using Xunit;
using static Exchange.Fix.Tests.Codec.RepeatingGroupTestData;

namespace Exchange.Fix.Tests.Codec;

/// <summary>Well-formed repeating groups pass validation, on the first (walked) and later (planned) message alike.</summary>
public class RepeatingGroupValidCasesTest
{
    public static TheoryData<string> ValidMessages => new()
    {
        NewOrderWith(TwoParties),
        NewOrderWith(NestedParties),
        NewOrderWith("453=1|448=FIRM-A|"),                                    // optional members left out
        NewOrderWith("453=1|448=FIRM-A|452=1|"),                              // skipping a member keeps the order
        NewOrderWith("453=0|"),                                               // an empty group
        FixTestMessages.NewOrderBody.Replace("|38=100|", "|453=1|448=FIRM-A|447=D|38=100|", StringComparison.Ordinal), // body continues after the group
        NewOrderWith(TwoParties + "386=1|336=MORNING|"),                      // two top-level groups in a row
        MarketDataRequestBody,
        CrossWith(TwoCrossSides),                                             // every instance has its required ClOrdID
        CrossWith("552=1|54=1|11=A|453=1|448=FIRM-A|38=100|"),               // with a nested group inside the instance
        MarketDataHeader + "262=R1|263=1|264=5|267=1|269=0|146=1|55=AAPL|48=US0378331005|22=4|", // Instrument members after Symbol
    };

    [Theory]
    [MemberData(nameof(ValidMessages))]
    public void ValidGroups_Pass_WalkedAndPlanned(string body)
    {
        var message = new FixMessage();
        byte[] frame = FixTestMessages.Wrap(body);
        for (int time = 0; time < 3; time++)
        {
            Assert.True(message.Parse(frame, FixDictionary.Fix44), $"{body}: {message.Validation}");
        }
    }

    [Fact]
    public void NewOrderWithParties_MapsToTheSameCommandAsWithout()
    {
        InstrumentDirectory instruments = FixTestMessages.Instruments();
        var plain = new FixMessage();
        var withParties = new FixMessage();
        Assert.True(plain.Parse(FixTestMessages.Wrap(FixTestMessages.NewOrderBody), FixDictionary.Fix44));
        Assert.True(withParties.Parse(FixTestMessages.Wrap(NewOrderWith(NestedParties)), FixDictionary.Fix44));

        Assert.Equal(MappingResult.Ok, NewOrderSingleReader.Read(plain, instruments, 3, 99, out Command expected));
        Assert.Equal(MappingResult.Ok, NewOrderSingleReader.Read(withParties, instruments, 3, 99, out Command actual));
        Assert.Equal(expected, actual);
    }

    [Fact]
    public void MarketDataRequest_WithItsGroups_StillReadsEverySymbol()
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap(MarketDataRequestBody), FixDictionary.Fix44));
        int[] ids = new int[4];
        Assert.True(MarketDataRequestReader.Read(message, FixTestMessages.Instruments(), ids, out MarketDataRequest request).IsOk);
        Assert.Equal(2, request.SymbolCount);
        Assert.Equal(0b11, request.EntryTypeMask);
    }
}
