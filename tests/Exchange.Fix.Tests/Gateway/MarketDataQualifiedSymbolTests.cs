using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// A market-data request names instruments by Symbol alone, as orders do: a Symbol qualified as another instrument is an
/// unknown symbol (35=Y, 281=0), not the listed stock's book under the client's name for something else.
/// </summary>
public sealed class MarketDataQualifiedSymbolTests
{
    /// <summary>The same qualifiers a NewOrderSingle is refused for as an unknown instrument (OrdRejReason 1).</summary>
    [Theory]
    [InlineData("55=AAPL|167=OPT|200=202606|201=1|202=150|")] // AAPL June 150 call
    [InlineData("55=AAPL|167=FUT|200=202606|")] // AAPL future
    [InlineData("55=AAPL|65=WI|")] // when-issued line
    [InlineData("55=AAPL|48=US0000000000|22=4|")] // some other ISIN
    [InlineData("55=AAPL|65=WI|167=CS|")] // common stock, but when-issued
    public void A_request_for_another_instrument_on_a_listed_symbol_is_refused_not_served_the_stock_book(string instrument)
    {
        using var h = new GatewayHarness();
        h.LogOn();

        h.Send("V", "262=MD-Q|263=1|264=5|267=2|269=0|269=1|146=1|" + instrument);

        Assert.Empty(h.MarketData.Requests); // no stream of the AAPL stock book under this request
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("Y", reject[35]);
        Assert.Equal("MD-Q", reject[262]);
        Assert.Equal("0", reject[281]);
    }

    [Fact]
    public void A_request_that_says_common_stock_is_served()
    {
        using var h = new GatewayHarness();
        h.LogOn();

        h.Send("V", "262=MD-Q|263=1|264=5|267=2|269=0|269=1|146=1|55=AAPL|167=CS|");

        Assert.Single(h.MarketData.Requests);
    }
}
