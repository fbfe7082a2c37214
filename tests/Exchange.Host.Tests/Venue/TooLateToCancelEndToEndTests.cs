using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// A cancel or replace that arrives after its order ended, over FIX through the whole venue: an OrderCancelReject "too
/// late to cancel" (102=0) naming the order (37) and how it ended (39), never "unknown order", which would leave the
/// client unsure whether the order still works.
/// </summary>
public sealed class TooLateToCancelEndToEndTests
{
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task Cancelling_a_filled_or_cancelled_order_is_too_late_and_reports_its_end(string pipelineMode)
    {
        await VenueHost.WithBuyerAndSellerAsync(pipelineMode, async (buyer, seller) =>
        {
            await seller.NewOrderAsync("S1", '2', 100, "100.00");
            string filledId = (await seller.ExpectExecutionAsync("S1", '0'))[37];
            await buyer.NewOrderAsync("B1", '1', 100, "100.00");
            await buyer.ExpectExecutionAsync("B1", 'F');
            await seller.ExpectExecutionAsync("S1", 'F');

            await seller.SendAsync("F", $"41=S1|11=S2|55=AAPL|54=2|60={FixTestClient.Now()}|");
            Dictionary<int, string> filled = await seller.ExpectAsync(m => m[35] == "9" && m[11] == "S2", "OrderCancelReject for S2");
            Assert.Equal((filledId, "2", "0", "1"), (filled[37], filled[39], filled[102], filled[434]));

            await buyer.NewOrderAsync("B2", '1', 10, "99.00");
            string cancelledId = (await buyer.ExpectExecutionAsync("B2", '0'))[37];
            await buyer.SendAsync("F", $"41=B2|11=B3|55=AAPL|54=1|60={FixTestClient.Now()}|");
            await buyer.ExpectExecutionAsync("B3", '4');
            await buyer.SendAsync("G", $"41=B2|11=B4|55=AAPL|54=1|60={FixTestClient.Now()}|38=20|40=2|44=99.00|");
            Dictionary<int, string> cancelled = await buyer.ExpectAsync(m => m[35] == "9" && m[11] == "B4", "OrderCancelReject for B4");
            Assert.Equal((cancelledId, "4", "0", "2"), (cancelled[37], cancelled[39], cancelled[102], cancelled[434]));

            // An id never used is still unknown.
            await buyer.SendAsync("F", $"41=ZZ|11=B5|55=AAPL|54=1|60={FixTestClient.Now()}|");
            Dictionary<int, string> unknown = await buyer.ExpectAsync(m => m[35] == "9" && m[11] == "B5", "OrderCancelReject for B5");
            Assert.Equal(("NONE", "8", "1"), (unknown[37], unknown[39], unknown[102]));
        });
    }
}
