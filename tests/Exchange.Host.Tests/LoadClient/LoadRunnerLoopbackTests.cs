using Exchange.LoadClient.Measurement;
using Exchange.LoadClient.Options;
using Exchange.LoadClient.Runs;
using Xunit;

namespace Exchange.Host.Tests.LoadClient;

/// <summary>
/// The whole client (logon, pre-population, each mode, logout, report) against <see cref="FakeAcceptor"/> over
/// loopback TCP. Asserts on counts and protocol, never on timing.
/// </summary>
public class LoadRunnerLoopbackTests
{
    [Theory]
    [InlineData("sync", false)]
    [InlineData("sync", true)]
    [InlineData("rate", false)]
    [InlineData("rate", true)]
    [InlineData("pipelined", false)]
    [InlineData("pipelined", true)]
    [InlineData("mixed", false)]
    [InlineData("mixed", true)]
    public void EveryMode_SendsAllOrders_AndLogsOut(string mode, bool busyPoll)
    {
        using var venue = new FakeAcceptor(stampStages: true);
        string hgrm = Path.Combine(Path.GetTempPath(), $"loadclient-{Guid.NewGuid():N}.hgrm");
        string timeline = Path.ChangeExtension(hgrm, ".csv");
        var args = new List<string>
        {
            "--port", venue.Port.ToString(System.Globalization.CultureInfo.InvariantCulture), "--mode", mode,
            "--orders", "400", "--warmup", "40", "--prepopulate", "30", "--rate", "40000", "--latency-every", "10",
            "--window", "50", "--batch", "7", "--timeout", "20", "--run-id", "TEST001", "--hgrm-out", hgrm,
            "--timeline-out", timeline,
        };
        if (busyPoll)
        {
            args.Add("--busy-poll");
        }

        var output = new StringWriter();
        LoadClientOptions options = Assert.IsType<LoadClientOptions>(ArgumentParser.Parse(args).Options);

        int exitCode = new LoadRunner(options, output).Run();

        string report = output.ToString();
        try
        {
            Assert.True(exitCode == 0, report);
            Assert.Equal(470, venue.OrdersReceived);
            Assert.True(venue.ResetSeqNumRequested);
            Assert.True(venue.LogoutReceived);
            Assert.Equal(0, venue.InboundSequenceErrors);
            Assert.Contains("acked 470,", report, StringComparison.Ordinal);
            long measured = mode == "mixed" ? 40 : 400;
            Assert.Contains($": n={measured} ", report, StringComparison.Ordinal);
            Assert.Contains("stages (", report, StringComparison.Ordinal);
            Assert.True(File.Exists(hgrm));
            Assert.Contains("#[Max", File.ReadAllText(hgrm), StringComparison.Ordinal);
            AssertTimeline(File.ReadAllLines(timeline), measured);
        }
        finally
        {
            File.Delete(hgrm);
            File.Delete(timeline);
        }
    }

    /// <summary>One row per measured order, in order, each sent no earlier than intended and received after sent.</summary>
    private static void AssertTimeline(string[] lines, long measured)
    {
        Assert.Equal(TimelineWriter.Header, lines[0]);
        Assert.Equal(measured, lines.Length - 1);
        long previous = -1;
        foreach (string line in lines.Skip(1))
        {
            double[] v = line.Split(',').Select(x => double.Parse(x, System.Globalization.CultureInfo.InvariantCulture)).ToArray();
            Assert.True(v[0] > previous, line);
            Assert.True(v[3] >= v[2] && v[4] > v[3], line);
            Assert.Equal(v[4] - v[2], v[5], 0.11);
            previous = (long)v[0];
        }

        // The absolute column is the same clock: its differences match the relative intended times.
        double[] first = lines[1].Split(',').Select(x => double.Parse(x, System.Globalization.CultureInfo.InvariantCulture)).ToArray();
        double[] last = lines[^1].Split(',').Select(x => double.Parse(x, System.Globalization.CultureInfo.InvariantCulture)).ToArray();
        Assert.Equal(last[2] - first[2], (last[1] - first[1]) / 1000, 0.11);
    }

    [Fact]
    public void NoVenue_FailsWithAClearMessage()
    {
        using var venue = new FakeAcceptor(stampStages: false);
        int port = venue.Port;
        venue.Dispose();
        var output = new StringWriter();
        LoadClientOptions options = Assert.IsType<LoadClientOptions>(ArgumentParser.Parse(["--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture)]).Options);

        Assert.Equal(2, new LoadRunner(options, output).Run());
        Assert.Contains("cannot connect", output.ToString(), StringComparison.Ordinal);
    }
}
