using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// A limit order the gateway refuses itself, whether or not it got as far as reading the price, is reported with the
/// Price (44) the client sent, or none when it sent none: never 44=0, which states a price nobody sent.
/// </summary>
public sealed class GatewayRejectPriceTests
{
    private const string Head = "11=ORD-2|54=1|60=20260302-09:30:00.000|38=100|40=2|";

    [Theory]
    [InlineData(Head + "55=NOPE|44=143.42|59=0|", "143.42")] // unknown symbol: refused before the price is read
    [InlineData(Head + "55=AAPL|44=143.42|59=2|", "143.42")] // unsupported TimeInForce: the same
    [InlineData(Head + "55=AAPL|44=143.42001|59=0|", "143.42001")] // more decimals than the instrument has
    [InlineData(Head + "55=AAPL|59=0|", null)] // a limit order without a price
    [InlineData(Head + "55=NOPE|44=143.420000000000000000000000000000001|59=0|", null)] // too long to echo whole
    public void A_refused_limit_order_is_reported_with_the_price_it_was_sent_with(string order, string? expectedPrice)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", order);

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> report = Assert.Single(h.TakeSent());
        Assert.Equal(("8", "8", "8", "ORD-2", "2"), (report[35], report[150], report[39], report[11], report[40]));
        Assert.Equal(expectedPrice, report.GetValueOrDefault(44));
    }
}
