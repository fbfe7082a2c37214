using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// Self-trade prevention through the whole venue: CLIENT2, configured to cancel its resting orders, buys across its own
/// offer; the offer is cancelled with a report saying why, the buy trades with CLIENT1's offer behind it.
/// </summary>
public sealed class SelfTradePreventionEndToEndTests
{
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task An_order_crossing_its_own_session_s_offer_cancels_the_offer_and_trades_with_the_next(string pipelineMode)
    {
        await VenueHost.WithBuyerAndSellerAsync(pipelineMode, ["--Venue:Sessions:1:SelfTradePrevention=CancelResting"], async (_, other, self) =>
        {
            await self.NewOrderAsync("S1", '2', 100, "101.00");
            await self.ExpectExecutionAsync("S1", '0');
            await other.NewOrderAsync("O1", '2', 30, "101.00");
            await other.ExpectExecutionAsync("O1", '0');

            await self.NewOrderAsync("B1", '1', 50, "101.00");

            Dictionary<int, string> cancelled = await self.ExpectExecutionAsync("S1", '4');
            Assert.Equal(("4", "0"), (cancelled[39], cancelled[151]));
            Assert.StartsWith("Canceled by self-trade prevention", cancelled[58], StringComparison.Ordinal);
            Dictionary<int, string> fill = await self.ExpectExecutionAsync("B1", 'F');
            Assert.Equal(("30", "20", "1"), (fill[32], fill[151], fill[39]));
            await other.ExpectExecutionAsync("O1", 'F');
        });
    }
}
