using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class MarketDataRequestReaderTests
{
    private const string Header = "35=V|49=C|56=V|34=1|52=20240315-14:30:00.000|";
    private static readonly InstrumentDirectory Instruments = FixTestMessages.Instruments();

    private static MappingResult Read(string body, Span<int> ids, out int count, out string reqId, out int depth, out int mask, out byte type)
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap(Header + body)));
        MappingResult result = MarketDataRequestReader.Read(message, Instruments, ids, out MarketDataRequest request);
        count = request.SymbolCount;
        reqId = FixTestMessages.Show(request.MdReqId);
        depth = request.MarketDepth;
        mask = request.EntryTypeMask;
        type = request.SubscriptionRequestType;
        return result;
    }

    [Fact]
    public void Subscription_ForTwoSymbols_IsDecoded()
    {
        int[] ids = new int[4];
        MappingResult result = Read("262=R1|263=1|264=5|267=2|269=0|269=1|146=2|55=MSFT|55=AAPL|", ids, out int count, out string reqId, out int depth, out int mask, out byte type);

        Assert.True(result.IsOk);
        Assert.Equal(2, count);
        Assert.Equal([1, 0], ids[..2]);
        Assert.Equal("R1", reqId);
        Assert.Equal(5, depth);
        Assert.Equal(0b11, mask);
        Assert.Equal((byte)'1', type);
    }

    [Fact]
    public void UnknownSymbol_IsABusinessReject()
    {
        MappingResult result = Read("262=R1|263=1|264=0|267=1|269=0|146=1|55=IBM|", new int[4], out _, out _, out _, out _, out _);
        Assert.Equal(MappingResult.Business(FixTags.Symbol, RejectReason.UnknownInstrument), result);
    }

    [Fact]
    public void GroupCountMismatch_IsASessionReject()
    {
        MappingResult result = Read("262=R1|263=1|264=0|267=1|269=0|146=3|55=AAPL|", new int[4], out _, out _, out _, out _, out _);
        Assert.Equal(MappingResult.Session(FixTags.NoRelatedSym, SessionRejectReason.IncorrectNumInGroupCount), result);
    }

    [Fact]
    public void MoreSymbolsThanTheCallerHoldsRoomFor_IsRejected_NotOverrun()
    {
        MappingResult result = Read("262=R1|263=0|264=0|267=1|269=0|146=2|55=AAPL|55=MSFT|", new int[1], out _, out _, out _, out _, out _);
        Assert.Equal(RejectReason.CapacityExceeded, result.Reason);
    }
}
