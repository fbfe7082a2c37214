using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// OrderMassCancelRequest (35=q) over FIX through the whole venue: an OrderMassCancelReport (35=r) with the count, an
/// ExecutionReport 150=4 for each of the session's orders, and nobody else's order touched.
/// </summary>
public sealed class MassCancelEndToEndTests
{
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task Cancelling_everything_takes_out_the_sessions_orders_on_every_symbol_only(string pipelineMode)
    {
        await VenueHost.WithBuyerAndSellerAsync(pipelineMode, async (buyer, seller) =>
        {
            await seller.NewOrderAsync("S1", '2', 100, "101.00");
            await seller.ExpectExecutionAsync("S1", '0');
            await seller.NewOrderAsync("S2", '2', 50, "250.00", symbol: "MSFT");
            await seller.ExpectExecutionAsync("S2", '0');
            await buyer.NewOrderAsync("B1", '1', 10, "99.00");
            await buyer.ExpectExecutionAsync("B1", '0');

            await seller.SendAsync("q", $"11=MC-1|530=7|60={FixTestClient.Now()}|");
            Dictionary<int, string> report = await seller.ExpectAsync(m => m[35] == "r", "OrderMassCancelReport");
            Assert.Equal(("MC-1", "7", "7", "2"), (report[11], report[530], report[531], report[533]));
            Dictionary<int, string> s1 = await seller.ExpectExecutionAsync("S1", '4');
            Dictionary<int, string> s2 = await seller.ExpectExecutionAsync("S2", '4');
            Assert.Equal(("4", "0", "4", "0"), (s1[39], s1[151], s2[39], s2[151]));

            // The buyer's order still rests: a sell at its price trades with it.
            await seller.NewOrderAsync("S3", '2', 10, "99.00");
            await seller.ExpectExecutionAsync("S3", 'F');
            await buyer.ExpectExecutionAsync("B1", 'F');

            // One symbol, one side, nothing left to cancel.
            await buyer.SendAsync("q", $"11=MC-2|530=1|55=AAPL|54=1|60={FixTestClient.Now()}|");
            Dictionary<int, string> none = await buyer.ExpectAsync(m => m[35] == "r", "OrderMassCancelReport");
            Assert.Equal(("1", "1", "0", "AAPL", "1"), (none[530], none[531], none[533], none[55], none[54]));
        });
    }
}
