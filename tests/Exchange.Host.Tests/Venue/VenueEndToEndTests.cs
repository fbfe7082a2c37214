using System.Net;
using Exchange.Host.Venue;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// The whole venue in process (Generic Host, configuration file, plugins, real engine, real FIX gateway, sockets) on
/// an OS-chosen port, driven by raw FIX over TCP: logon, an order that rests, a cross with fills on both sides, a
/// cancel, a resent order refused as a duplicate, a resent live order answered with its status, logout; with each
/// pipeline mode (threads per stage, or one polling thread).
/// </summary>
public sealed class VenueEndToEndTests
{
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task Orders_rest_fill_and_cancel_over_fix_with_reports_to_both_sides(string pipelineMode)
    {
        using var directory = new TempVenueDirectory();
        using IHost host = await VenueHost.StartAsync(directory, pipelineMode);
        try
        {
            (FixTestClient buyer, FixTestClient seller) = await VenueHost.LogOnBuyerAndSellerAsync(host);
            await using FixTestClient buyerConnection = buyer;
            await using FixTestClient sellerConnection = seller;

            await buyer.NewOrderAsync("B1", '1', 100, "100.00");
            Dictionary<int, string> accepted = await buyer.ExpectExecutionAsync("B1", '0');
            Assert.Equal("0", accepted[39]);
            Assert.Equal("100", accepted[151]);

            await buyer.NewOrderAsync("B2", '1', 30, "99.50");
            string b2OrderId = (await buyer.ExpectExecutionAsync("B2", '0'))[37];

            // The sell crosses B1 only (better price first): 60 of 100 trade at the resting price.
            await seller.NewOrderAsync("S1", '2', 60, "99.00");
            await seller.ExpectExecutionAsync("S1", '0');
            Dictionary<int, string> sellFill = await seller.ExpectExecutionAsync("S1", 'F');
            Assert.Equal("2", sellFill[39]);
            Assert.Equal("60", sellFill[32]);
            Assert.Equal("100", sellFill[31]);
            Dictionary<int, string> buyFill = await buyer.ExpectExecutionAsync("B1", 'F');
            Assert.Equal("1", buyFill[39]);
            Assert.Equal("60", buyFill[32]);
            Assert.Equal("40", buyFill[151]);

            await buyer.CancelAsync("C1", "B1", '1');
            Dictionary<int, string> cancelled = await buyer.ExpectExecutionAsync("C1", '4');
            Assert.Equal("B1", cancelled[41]);
            Assert.Equal("4", cancelled[39]);
            Assert.Equal("60", cancelled[14]);

            // A cancel of the already cancelled order is refused with an OrderCancelReject.
            await buyer.CancelAsync("C2", "B1", '1');
            await buyer.ExpectAsync(m => m[35] == "9" && m[11] == "C2", "OrderCancelReject for C2");

            // B1 sent again as a possible resend (what a client that got no answer would do): it was received and has
            // ended, so the answer is its final status (cancelled after 60 filled), and nothing rests or trades again (the
            // snapshot below shows B2 only).
            await buyer.NewOrderAsync("B1", '1', 100, "100.00", possResend: true);
            Dictionary<int, string> ended = await buyer.ExpectExecutionAsync("B1", 'I');
            Assert.Equal(("4", "100", "60", "0", "100", "0"), (ended[39], ended[38], ended[14], ended[151], ended[6], ended[17]));

            // Without the flag it is a duplicate order, rejected with the ended order's state (Appendix D).
            await buyer.NewOrderAsync("B1", '1', 100, "100.00");
            Dictionary<int, string> duplicate = await buyer.ExpectExecutionAsync("B1", '8');
            Assert.Equal(("6", "4", ended[37], "60", "0"), (duplicate[103], duplicate[39], duplicate[37], duplicate[14], duplicate[151]));

            // B2 still rests: a possible resend of it is answered with its current state (ExecType I, FIX 4.4 Appendix
            // D "Poss resend and duplicate ClOrdID") and enters nothing, so the client does not take it for dead.
            await buyer.NewOrderAsync("B2", '1', 30, "99.50", possResend: true);
            Dictionary<int, string> status = await buyer.ExpectExecutionAsync("B2", 'I');
            Assert.Equal(("0", b2OrderId, "30", "30", "0", "0"), (status[39], status[37], status[38], status[151], status[14], status[17]));

            // Reused without the flag it is a duplicate order: rejected, but with B2's status, not Rejected.
            await buyer.NewOrderAsync("B2", '1', 50, "99.75");
            Dictionary<int, string> reused = await buyer.ExpectExecutionAsync("B2", '8');
            Assert.Equal(("6", "0", b2OrderId, "30", "30"), (reused[103], reused[39], reused[37], reused[38], reused[151]));

            // Market data: a snapshot of what rests (B2 only, once, at 30), then an incremental when a new level appears.
            await seller.SendAsync("V", "262=MD1|263=1|264=10|267=2|269=0|269=1|146=1|55=AAPL|");
            Dictionary<int, string> snapshot = await seller.ExpectAsync(m => m[35] == "W" && m[262] == "MD1", "market-data snapshot");
            Assert.Equal("1", snapshot[268]);
            Assert.Equal("0", snapshot[269]);
            Assert.Equal("30", snapshot[271]);
            await buyer.NewOrderAsync("B3", '1', 25, "99.00");
            await buyer.ExpectExecutionAsync("B3", '0');
            Dictionary<int, string> incremental = await seller.ExpectAsync(m => m[35] == "X" && m[262] == "MD1", "market-data incremental");
            Assert.Equal("0", incremental[279]);
            Assert.Equal("25", incremental[271]);

            await buyer.SendAsync("5", "");
            await buyer.ExpectAsync(m => m[35] == "5", "Logout reply");
            Assert.True(await buyer.WaitForCloseAsync(TimeSpan.FromSeconds(10)));

            // A graceful stop logs the remaining session out with a reason; the client answers and is disconnected.
            Task stopping = host.StopAsync();
            Dictionary<int, string> logout = await seller.ExpectAsync(m => m[35] == "5", "Logout from the stopping venue");
            Assert.Equal("venue shutting down", logout[58]);
            await seller.SendAsync("5", "");
            Assert.True(await seller.WaitForCloseAsync(TimeSpan.FromSeconds(10)));
            await stopping.WaitAsync(TimeSpan.FromSeconds(30));
        }
        finally
        {
            await host.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }
    }

    /// <summary>
    /// The sessions' timers run in both modes (Inline runs them on the polling thread): a silent client that logged on
    /// with HeartBtInt=1 hears from the venue unprompted: a Heartbeat after a second of outbound silence, or a
    /// TestRequest after 1.2 s of inbound silence, whichever timer check comes first (both are timer work).
    /// </summary>
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task A_silent_session_gets_heartbeats(string pipelineMode)
    {
        using var directory = new TempVenueDirectory();
        using IHost host = await VenueHost.StartAsync(directory, pipelineMode);
        try
        {
            IPEndPoint endPoint = await host.Services.GetRequiredService<VenueEndpoint>().Bound.WaitAsync(TimeSpan.FromSeconds(10));
            await using FixTestClient client = await FixTestClient.ConnectAsync(endPoint, "CLIENT1");
            await client.LogonAsync(heartBtInt: 1);
            await client.ExpectAsync(m => m[35] == "A", "Logon reply");
            Dictionary<int, string> unprompted = await client.ExpectAsync(m => m[35] is "0" or "1", "Heartbeat or TestRequest after a second of silence");
            Assert.Equal(unprompted[35] == "1", unprompted.ContainsKey(112));
        }
        finally
        {
            await host.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }
    }
}
