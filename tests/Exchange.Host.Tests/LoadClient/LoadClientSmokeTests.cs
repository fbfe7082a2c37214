using System.Globalization;
using System.Net;
using Exchange.Host.Tests.Venue;
using Exchange.Host.Venue;
using Exchange.LoadClient.Options;
using Exchange.LoadClient.Runs;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Xunit;

namespace Exchange.Host.Tests.LoadClient;

/// <summary>
/// The load client against the real venue in process (Generic Host, real engine, real FIX gateway, sockets): small
/// sync and pipelined runs must be fully acknowledged, cross (trades on both sides) and produce no rejects. Counts
/// only, never timing.
/// </summary>
public sealed class LoadClientSmokeTests
{
    [Fact]
    public async Task SyncThenPipelined_AgainstTheVenue_AreFullyAcknowledged()
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "", journalFsync: "Never");
        using IHost host = VenueProgram.Build(["--config", config]);
        await host.StartAsync().WaitAsync(TimeSpan.FromSeconds(30));
        try
        {
            IPEndPoint endPoint = await host.Services.GetRequiredService<VenueEndpoint>().Bound.WaitAsync(TimeSpan.FromSeconds(10));
            string port = endPoint.Port.ToString(CultureInfo.InvariantCulture);

            string sync = await RunAsync(["--port", port, "--sender", "CLIENT1", "--mode", "sync", "--orders", "200", "--warmup", "20", "--prepopulate", "40", "--run-id", "SMOKE01"]);
            Assert.Contains("acked 260,", sync, StringComparison.Ordinal);

            // Same session again: ResetSeqNumFlag=Y starts both sides at 1; a new run id keeps ClOrdIDs unique.
            string pipelined = await RunAsync(["--port", port, "--sender", "CLIENT1", "--mode", "pipelined", "--orders", "2000", "--warmup", "100", "--prepopulate", "100", "--window", "500", "--run-id", "SMOKE02"]);
            Assert.Contains("acked 2200,", pipelined, StringComparison.Ordinal);
        }
        finally
        {
            await host.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }
    }

    /// <summary>
    /// Inline mode with rings smaller than one read's worth of orders: the polling thread must drain the inbound ring
    /// (and the matcher the outbound ring) itself whenever they fill, or it would wait for itself forever.
    /// </summary>
    [Fact]
    public async Task Inline_venue_with_tiny_rings_drains_them_itself_and_acknowledges_everything()
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: "", journalFsync: "Never", pipelineMode: "Inline", ringSize: 64);
        using IHost host = VenueProgram.Build(["--config", config]);
        await host.StartAsync().WaitAsync(TimeSpan.FromSeconds(30));
        try
        {
            IPEndPoint endPoint = await host.Services.GetRequiredService<VenueEndpoint>().Bound.WaitAsync(TimeSpan.FromSeconds(10));
            string port = endPoint.Port.ToString(CultureInfo.InvariantCulture);
            string pipelined = await RunAsync(["--port", port, "--sender", "CLIENT1", "--mode", "pipelined", "--orders", "3000", "--warmup", "100", "--prepopulate", "200", "--window", "1000", "--batch", "200", "--busy-poll", "--run-id", "SMOKE03"]);
            Assert.Contains("acked 3300,", pipelined, StringComparison.Ordinal);
        }
        finally
        {
            await host.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }
    }

    private static async Task<string> RunAsync(string[] args)
    {
        LoadClientOptions options = Assert.IsType<LoadClientOptions>(ArgumentParser.Parse(args).Options);
        var output = new StringWriter();
        int exitCode = await Task.Run(() => new LoadRunner(options, output).Run());
        string report = output.ToString();
        Assert.True(exitCode == 0, report);
        Assert.Contains("rejected 0,", report, StringComparison.Ordinal);
        Assert.Contains("session rejects 0, business rejects 0", report, StringComparison.Ordinal);
        Assert.Contains("inbound seq gaps 0", report, StringComparison.Ordinal);
        Assert.DoesNotContain("trade 0,", report, StringComparison.Ordinal);
        return report;
    }
}
