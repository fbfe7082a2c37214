using System.Net;
using Exchange.Host.Venue;
using Microsoft.Extensions.DependencyInjection;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// Cancel on disconnect through the whole venue: CLIENT2 (configured with it) drops its TCP connection without a
/// Logout; its resting orders leave the book, it learns of each cancel after logging on again, and CLIENT1's order,
/// on a session without the option, stays.
/// </summary>
public sealed class CancelOnDisconnectEndToEndTests
{
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task A_dropped_connection_takes_its_sessions_orders_with_it(string pipelineMode)
    {
        await VenueHost.WithBuyerAndSellerAsync(pipelineMode, ["--Venue:Sessions:1:CancelOnDisconnect=true"], async (host, buyer, seller) =>
        {
            await seller.NewOrderAsync("S1", '2', 100, "101.00");
            await seller.ExpectExecutionAsync("S1", '0');
            await seller.NewOrderAsync("S2", '2', 50, "250.00", symbol: "MSFT");
            await seller.ExpectExecutionAsync("S2", '0');
            await buyer.NewOrderAsync("B1", '1', 10, "99.00");
            await buyer.ExpectExecutionAsync("B1", '0');

            await seller.DisposeAsync(); // no Logout: the connection just ends
            IPEndPoint endPoint = await host.Services.GetRequiredService<VenueEndpoint>().Bound;
            await using FixTestClient again = await LogOnAgainAsync(endPoint, "CLIENT2");

            // The reports waiting for the session come right behind the reset Logon's reply.
            foreach (string id in new[] { "S1", "S2" })
            {
                Dictionary<int, string> cancelled = await again.ExpectExecutionAsync(id, '4');
                Assert.Equal(("4", "0", "Canceled on disconnect: the session ended"), (cancelled[39], cancelled[151], cancelled[58]));
            }

            // Sequenced after the cancel (the new logon was taken only once it was in the ring): nothing to trade with.
            await buyer.NewOrderAsync("B2", '1', 10, "101.00");
            Dictionary<int, string> rests = await buyer.ExpectAsync(m => m[35] == "8" && m[11] == "B2", "B2's first report");
            Assert.Equal("0", rests[150]);

            // CLIENT1 has no cancel on disconnect: its order still rests.
            await again.NewOrderAsync("S3", '2', 10, "99.00");
            await again.ExpectExecutionAsync("S3", 'F');
        });
    }

    /// <summary>
    /// Logs <paramref name="compId"/> on with ResetSeqNumFlag, trying again while the venue closes the new connection
    /// without a reply (its previous logon not yet seen to end, or its orders still being cancelled).
    /// </summary>
    private static async Task<FixTestClient> LogOnAgainAsync(IPEndPoint endPoint, string compId)
    {
        for (int attempt = 1; ; attempt++)
        {
            FixTestClient client = await FixTestClient.ConnectAsync(endPoint, compId);
            await client.SendAsync("A", "98=0|108=30|141=Y|");
            if (!await client.WaitForCloseAsync(TimeSpan.FromMilliseconds(300)))
            {
                await client.ExpectAsync(m => m[35] == "A", "Logon reply");
                return client;
            }

            await client.DisposeAsync();
            Assert.True(attempt < 50, "the venue kept refusing the new logon");
            await Task.Delay(20);
        }
    }
}
