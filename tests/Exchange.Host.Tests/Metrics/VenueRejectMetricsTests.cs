using System.Diagnostics.Metrics;
using Exchange.Host.Metrics;
using Exchange.Host.Tests.Venue;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Xunit;

namespace Exchange.Host.Tests.Metrics;

/// <summary>
/// <c>exchange.rejects</c> against what clients received: the gateway answers some rejects itself, before the
/// matcher, and those must be counted too.
/// </summary>
public sealed class VenueRejectMetricsTests
{
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task Rejects_count_every_reject_clients_received_by_where_it_was_made(string pipelineMode)
    {
        await VenueHost.WithBuyerAndSellerAsync(pipelineMode, [], async (host, buyer, _) =>
        {
            // The matcher refuses a cancel of an order it does not know.
            await buyer.CancelAsync("C1", "NOPE", '1');
            await buyer.ExpectAsync(m => m[35] == "9" && m[11] == "C1", "OrderCancelReject for C1");

            // The gateway rejects a new order for a symbol the venue does not list; it never reaches the matcher.
            await buyer.SendAsync("D", $"11=X1|55=ZZZZ|54=1|60={FixTestClient.Now()}|38=10|40=2|44=100.00|59=0|");
            await buyer.ExpectExecutionAsync("X1", '8');

            Dictionary<string, long> rejects = await ReadRejectsAsync(host, atLeast: 2);

            Assert.Equal(1, rejects["matcher"]);
            Assert.Equal(1, rejects["gateway"]);
        });
    }

    [Fact]
    public async Task An_order_refused_over_the_session_limit_counts_as_a_gateway_reject()
    {
        // Over the logon's message limit the gateway refuses a new order itself (BusinessMessageReject 35=j): it never
        // reaches the matcher, and the client received a reject for it.
        await VenueHost.WithBuyerAndSellerAsync("Threaded", ["--Venue:Sessions:0:MaxApplicationMessagesPerSecond=1"], async (host, buyer, _) =>
        {
            await buyer.NewOrderAsync("T1", '1', 10, "100.00");
            await buyer.NewOrderAsync("T2", '1', 10, "100.00");
            await buyer.ExpectAsync(m => m[35] == "j" && m[379] == "T2", "BusinessMessageReject for T2");

            Dictionary<string, long> rejects = await ReadRejectsAsync(host, atLeast: 1);

            Assert.Equal(0, rejects["matcher"]);
            Assert.Equal(1, rejects["gateway"]);
        });
    }

    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task Messages_refused_as_messages_are_counted_by_the_reply_the_client_received(string pipelineMode)
    {
        await VenueHost.WithBuyerAndSellerAsync(pipelineMode, ["--Venue:Sessions:0:MaxApplicationMessagesPerSecond=1"], async (host, buyer, _) =>
        {
            // A Side the dictionary does not define: a session-level Reject (35=3), and no order.
            await buyer.SendAsync("D", $"11=R1|55=AAPL|54=Z|60={FixTestClient.Now()}|38=10|40=2|44=100.00|59=0|");
            await buyer.ExpectAsync(m => m[35] == "3" && m[45] != "", "Reject for R1");

            // A FIX 4.4 application message the venue does not support: BusinessMessageReject (35=j, 380=3).
            await buyer.SendAsync("AF", "584=MS-1|585=7|");
            await buyer.ExpectAsync(m => m[35] == "j" && m[380] == "3", "BusinessMessageReject for the unsupported type");

            // Past the limit of one application message a second (neither reply above counted against it): the second
            // market-data request is refused with 35=j (380=0). No order, so exchange.rejects does not count it.
            await buyer.SendAsync("V", "262=M1|263=1|264=1|267=1|269=0|146=1|55=AAPL|");
            await buyer.SendAsync("V", "262=M2|263=1|264=1|267=1|269=0|146=1|55=AAPL|");
            await buyer.ExpectAsync(m => m[35] == "j" && m[379] == "M2", "BusinessMessageReject for M2");

            Dictionary<string, long> refused = await ReadAsync(host, "exchange.messages.rejected", atLeast: 3);

            Assert.Equal(1, refused["reject"]);
            Assert.Equal(2, refused["business_reject"]);
        });
    }

    /// <summary>
    /// exchange.rejects of this venue by source, read until they add up to <paramref name="atLeast"/> (the matcher
    /// counts after it hands a report on) or a few seconds pass.
    /// </summary>
    private static Task<Dictionary<string, long>> ReadRejectsAsync(IHost host, long atLeast) => ReadAsync(host, "exchange.rejects", atLeast);

    /// <summary>A counter of this venue by its one tag's value, read until the values add up to <paramref name="atLeast"/> or a few seconds pass.</summary>
    private static async Task<Dictionary<string, long>> ReadAsync(IHost host, string name, long atLeast)
    {
        var factory = host.Services.GetRequiredService<IMeterFactory>();
        Dictionary<string, long> rejects = [];
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            // This venue's meter only: other tests' venues publish the same names in the same process.
            if (ReferenceEquals(instrument.Meter.Scope, factory) && instrument.Meter.Name == VenueMetrics.MeterName && instrument.Name == name)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, value, tags, _) => rejects[(string)tags[0].Value!] = value);
        listener.Start();
        for (int attempt = 0; attempt < 100 && rejects.Values.Sum() < atLeast; attempt++)
        {
            listener.RecordObservableInstruments();
            await Task.Delay(20);
        }

        return rejects;
    }
}
