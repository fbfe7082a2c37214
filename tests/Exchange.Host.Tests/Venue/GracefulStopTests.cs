using System.Net;
using Exchange.Core.Commands;
using Exchange.Host.Journal;
using Exchange.Host.Venue;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// A graceful stop while a client is streaming orders: every order the venue journalled (accepted) must have had its
/// report sent on the wire before the venue's Logout, not only stored for a resend at the next logon.
/// </summary>
public sealed class GracefulStopTests
{
    [Theory]
    [InlineData("Threaded", 1024)]
    [InlineData("Inline", 1024)]
    [InlineData("Threaded", 64)] // the smallest rings: producers wait on full rings while the stop drains them
    public async Task Every_accepted_order_is_reported_before_the_logout(string mode, int ringSize)
    {
        using var directory = new TempVenueDirectory();
        using IHost host = await VenueHost.StartAsync(
            directory, mode, $"--Venue:Pipeline:InboundRingSize={ringSize}", $"--Venue:Pipeline:OutboundRingSize={ringSize}");
        IPEndPoint endPoint = await host.Services.GetRequiredService<VenueEndpoint>().Bound.WaitAsync(TimeSpan.FromSeconds(10));
        FixTestClient client = await FixTestClient.ConnectAsync(endPoint, "CLIENT1");
        await using (client)
        {
            await client.LogonAsync();
            await client.ExpectAsync(m => m[35] == "A", "Logon reply");
            await client.NewOrderAsync("first", '1', 1, "100.00");
            await client.ExpectAsync(m => m[35] == "8" && m[11] == "first", "first order's report");

            // Orders keep coming while the venue starts to stop; those it no longer accepts are rejected.
            using var streaming = new CancellationTokenSource();
            Task sending = Task.Run(async () =>
            {
                try
                {
                    // Paced, so the reports stay within the venue's send backlog bound for a client that reads this
                    // slowly (past it the venue would rightly cut the client off).
                    for (int i = 0; !streaming.IsCancellationRequested; i++)
                    {
                        await client.NewOrderAsync($"S{i}", '1', 1, "100.00");
                        if (i % 50 == 49)
                        {
                            await Task.Delay(1);
                        }
                    }
                }
                catch (Exception exception) when (exception is IOException or System.Net.Sockets.SocketException or ObjectDisposedException or InvalidOperationException)
                {
                    // The venue closed the connection.
                }
            });

            // The stream has begun before the stop does: on a loaded machine the sending task may not have run at all
            // after a fixed delay, and the stop would then test nothing.
            await client.ExpectAsync(m => m[35] == "8" && m[11] == "S0", "the first streamed order's report");
            Task closed = client.WaitForCloseAsync(TimeSpan.FromSeconds(30));
            await Task.Delay(50);
            Task stopping = host.StopAsync();

            // The client stops sending soon after the stop begins, as a client seeing "venue is stopping" would: a
            // socket closed with unread input is reset, and a reset can discard replies the client has not read yet.
            await Task.Delay(20);
            await streaming.CancelAsync();
            await sending.WaitAsync(TimeSpan.FromSeconds(30));
            await stopping.WaitAsync(TimeSpan.FromSeconds(30));
            await closed;

            List<Dictionary<int, string>> received = client.AllReceived;
            int logout = received.FindIndex(m => m[35] == "5");
            Assert.True(logout >= 0, $"the venue logged out (received {received.Count}: {string.Join(",", received.GroupBy(m => m[35]).Select(g => $"{g.Key}x{g.Count()}"))})");
            HashSet<string> reportedBeforeLogout = received.Take(logout)
                .Where(m => m[35] == "8" && m.GetValueOrDefault(150) == "0")
                .Select(m => m[11])
                .ToHashSet();

            var journalled = new List<string>();
            using (JournalReader reader = JournalReader.Open(directory.JournalPath))
            {
                while (reader.TryRead(out _, out Command command))
                {
                    journalled.Add(System.Text.Encoding.ASCII.GetString(command.ClOrdId.AsSpan()));
                }
            }

            Assert.True(journalled.Count > 1, $"orders were accepted while streaming (journalled {journalled.Count}, received {received.Count})");
            List<string> unreported = journalled.FindAll(id => !reportedBeforeLogout.Contains(id));
            Assert.True(unreported.Count == 0, $"{unreported.Count} of {journalled.Count} accepted orders had no report before the Logout");
        }
    }
}
