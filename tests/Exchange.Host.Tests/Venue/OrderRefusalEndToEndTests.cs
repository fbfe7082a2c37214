using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// Requests the gateway refuses, answered over FIX by the whole venue: an order instruction the venue does not carry
/// out is refused instead of ignored, and the OrderCancelReject for a refused replace reports the live order's state,
/// which only the engine knows.
/// </summary>
public sealed class OrderRefusalEndToEndTests
{
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task A_post_only_order_is_refused_and_a_refused_replace_reports_the_live_order(string pipelineMode)
    {
        await VenueHost.WithBuyerAndSellerAsync(pipelineMode, async (buyer, seller) =>
        {
            await seller.NewOrderAsync("S1", '2', 100, "100.00");
            string orderId = (await seller.ExpectExecutionAsync("S1", '0'))[37];

            // Post-only (ExecInst 6) would take liquidity here: refused, and nothing trades.
            await buyer.SendAsync("D", $"11=P1|55=AAPL|54=1|60={FixTestClient.Now()}|38=10|40=2|44=100.00|59=0|18=6|");
            Dictionary<int, string> refused = await buyer.ExpectExecutionAsync("P1", '8');
            Assert.Equal(("8", "11"), (refused[39], refused[103]));

            await buyer.NewOrderAsync("B1", '1', 30, "100.00");
            await buyer.ExpectExecutionAsync("B1", 'F');
            await seller.ExpectExecutionAsync("S1", 'F');

            // A price finer than the instrument's decimals is refused by the gateway; the reject still names S1 and
            // reports it partly filled (39=1), not dead.
            await seller.SendAsync("G", $"41=S1|11=S2|55=AAPL|54=2|60={FixTestClient.Now()}|38=100|40=2|44=100.00001|");
            Dictionary<int, string> reject = await seller.ExpectAsync(m => m[35] == "9" && m[11] == "S2", "OrderCancelReject for S2");
            Assert.Equal((orderId, "1", "S1", "2"), (reject[37], reject[39], reject[41], reject[434]));

            // S1 still rests with 70: a valid replace of it under the refused request's ClOrdID works.
            await seller.SendAsync("G", $"41=S1|11=S2|55=AAPL|54=2|60={FixTestClient.Now()}|38=100|40=2|44=100.01|");
            Dictionary<int, string> replaced = await seller.ExpectExecutionAsync("S2", '5');
            Assert.Equal((orderId, "70", "30"), (replaced[37], replaced[151], replaced[14]));
        });
    }
}
