using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// OrderStatusRequest (35=H) over FIX through the whole venue: an ExecutionReport of Order Status (150=I, ExecID 0) with
/// the live order's state and the request's OrdStatusReqID, a finished order's final state, or OrdStatus 8 with
/// OrdRejReason 5 for an id no order of the session had; the book is unchanged either way.
/// </summary>
public sealed class StatusRequestEndToEndTests
{
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task A_partly_filled_order_is_reported_as_it_stands_a_filled_one_as_filled_and_a_stranger_as_unknown(string pipelineMode)
    {
        await VenueHost.WithBuyerAndSellerAsync(pipelineMode, async (buyer, seller) =>
        {
            await seller.NewOrderAsync("S1", '2', 100, "100.00");
            string orderId = (await seller.ExpectExecutionAsync("S1", '0'))[37];
            await buyer.NewOrderAsync("B1", '1', 30, "100.00");
            await buyer.ExpectExecutionAsync("B1", 'F');
            await seller.ExpectExecutionAsync("S1", 'F');

            await seller.SendAsync("H", "11=S1|790=Q1|55=AAPL|54=2|");
            Dictionary<int, string> status = await seller.ExpectExecutionAsync("S1", 'I');
            Assert.Equal((orderId, "1", "0", "Q1"), (status[37], status[39], status[17], status[790]));
            Assert.Equal(("70", "30", "100"), (status[151], status[14], status[6]));

            await buyer.SendAsync("H", "11=B1|790=Q2|55=AAPL|54=1|");
            Dictionary<int, string> filled = await buyer.ExpectExecutionAsync("B1", 'I');
            Assert.Equal(("2", "30", "30", "0", "100", "Q2"), (filled[39], filled[38], filled[14], filled[151], filled[6], filled[790]));
            Assert.False(filled.ContainsKey(103));

            await buyer.SendAsync("H", "11=ZZ|790=Q3|55=AAPL|54=1|");
            Dictionary<int, string> unknown = await buyer.ExpectExecutionAsync("ZZ", 'I');
            Assert.Equal(("NONE", "8", "5", "Q3"), (unknown[37], unknown[39], unknown[103], unknown[790]));

            // Nothing changed: the rest of S1 still trades.
            await buyer.NewOrderAsync("B2", '1', 70, "100.00");
            await buyer.ExpectExecutionAsync("B2", 'F');
            Dictionary<int, string> fill = await seller.ExpectExecutionAsync("S1", 'F');
            Assert.Equal(("0", "2"), (fill[151], fill[39]));
        });
    }
}
