using System.Net;
using System.Net.Sockets;
using Exchange.Fix.Gateway;
using Exchange.LoadClient.Measurement;
using Exchange.LoadClient.Options;
using Exchange.LoadClient.Orders;
using Exchange.LoadClient.Session;
using Xunit;

namespace Exchange.Host.Tests.LoadClient;

/// <summary>A fixed-rate sender that fell behind sends the due orders in one write, each keeping its own planned time.</summary>
public class CatchUpSendTests
{
    [Fact]
    public void ScheduledBatch_RecordsEachOrdersPlannedTime_NotTheSendTime()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        using var client = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        client.Connect((IPEndPoint)listener.LocalEndpoint);
        using Socket server = listener.AcceptSocket();
        LoadClientOptions options = Assert.IsType<LoadClientOptions>(ArgumentParser.Parse(["--batch", "8"]).Options);
        var codec = new ClOrdIdCodec("RUN0001");
        var tracker = new OrderTracker(16, prepopulate: 0, warmup: 0, latencyEvery: 1, correctedForSchedule: true, 60_000_000_000);
        using var session = new FixClientSession(client, "LOADGEN", "EXCH", busyPoll: false);
        var sender = new OrderSender(session, tracker, new OrderFlow(options.MidPrice, options.Tick, options.Levels), codec, options);

        // A schedule that started a second ago at 1,000/s: every one of the 16 orders is overdue.
        var schedule = new RateSchedule(System.Diagnostics.Stopwatch.GetTimestamp() - System.Diagnostics.Stopwatch.Frequency, 1_000, System.Diagnostics.Stopwatch.Frequency);
        sender.SendBatch(OrderKind.Flow, 0, 8, schedule);
        sender.SendBatch(OrderKind.Flow, 8, 8);

        for (int n = 0; n < 8; n++)
        {
            (long intended, long sent, _) = tracker.TimesOf(n);
            Assert.Equal(schedule.IntendedTicks(n), intended);
            Assert.True(sent > intended);
        }

        for (int n = 8; n < 16; n++)
        {
            (long intended, long sent, _) = tracker.TimesOf(n);
            Assert.Equal(sent, intended);
        }

        Assert.Equal(16, sender.OrdersSent);
    }

    [Fact]
    public void Timeline_WritesAnUnacknowledgedOrderWithEmptyReceivedColumns()
    {
        var tracker = new OrderTracker(3, prepopulate: 0, warmup: 0, latencyEvery: 1, correctedForSchedule: true, 60_000_000_000);
        long t = System.Diagnostics.Stopwatch.Frequency;
        tracker.OnSent(0, t, t + 10);
        tracker.OnSent(1, 2 * t, 2 * t + 10);
        tracker.OnExecutionReport(OrderKind.Flow, 0, (byte)'0', t + 1_000, default(StageTimes));
        var output = new StringWriter();

        TimelineWriter.Write(output, tracker);

        string[] lines = output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.Equal(3, lines.Length);
        Assert.StartsWith("0,1000000000,0.0,", lines[1], StringComparison.Ordinal);
        Assert.DoesNotContain(",,", lines[1], StringComparison.Ordinal);
        Assert.StartsWith("1,2000000000,1000000.0,", lines[2], StringComparison.Ordinal);
        Assert.EndsWith(",,", lines[2], StringComparison.Ordinal);
    }
}
