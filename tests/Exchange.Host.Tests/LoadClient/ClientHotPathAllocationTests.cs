using System.Net;
using System.Net.Sockets;
using Exchange.Fix.Codec;
using Exchange.LoadClient.Measurement;
using Exchange.LoadClient.Options;
using Exchange.LoadClient.Orders;
using Exchange.LoadClient.Session;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Host.Tests.LoadClient;

/// <summary>The client's per-order path (stamp + socket send, frame + parse + match + record) allocates nothing.</summary>
[Collection(ZeroAllocationCollection.Name)]
public class ClientHotPathAllocationTests
{
    [Fact]
    public void SendingAndMatchingOrders_AllocatesNothingAfterWarmUp()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        using var client = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        client.Connect((IPEndPoint)listener.LocalEndpoint);
        using Socket server = listener.AcceptSocket();
        var drain = new Thread(() =>
        {
            byte[] sink = new byte[1 << 16];
            while (server.Receive(sink) > 0)
            {
            }
        }) { IsBackground = true };
        drain.Start();

        const int orders = 20_000;
        LoadClientOptions options = Assert.IsType<LoadClientOptions>(ArgumentParser.Parse(["--batch", "16"]).Options);
        var codec = new ClOrdIdCodec("RUN0001");
        var tracker = new OrderTracker(orders, prepopulate: 0, warmup: 0, latencyEvery: 1, correctedForSchedule: false, 60_000_000_000);
        using var session = new FixClientSession(client, "LOADGEN", "EXCH", busyPoll: false);
        var sender = new OrderSender(session, tracker, new OrderFlow(options.MidPrice, options.Tick, options.Levels), codec, options);
        var reader = new ReplyReader(session, tracker, codec);
        byte[][] reports = Enumerable.Range(0, orders).Select(n => ExecutionReport(codec, n)).ToArray();

        for (int n = 0; n < 1_000; n++)
        {
            SendAndMatch(sender, reader, reports, n);
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int n = 1_000; n < orders - 16; n += 16)
        {
            sender.SendBatch(OrderKind.Flow, n, 16);
            for (int i = n; i < n + 16; i++)
            {
                reader.Append(reports[i]);
            }

            reader.Process(receivedTicks: n + 100);
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        client.Shutdown(SocketShutdown.Both);
        drain.Join(TimeSpan.FromSeconds(10));

        Assert.Equal(0, allocated);
        Assert.True(tracker.FlowAcked >= orders - 32);
    }

    private static void SendAndMatch(OrderSender sender, ReplyReader reader, byte[][] reports, int n)
    {
        sender.SendOne(OrderKind.Flow, n, 0);
        reader.Append(reports[n]);
        reader.Process(receivedTicks: long.MaxValue / 2);
    }

    private static byte[] ExecutionReport(ClOrdIdCodec codec, long number)
    {
        byte[] clOrdId = new byte[ClOrdIdCodec.Length];
        codec.Write(OrderKind.Flow, number, clOrdId);
        byte[] buffer = new byte[FixMessageWriter.TypicalMaxLength];
        var w = new FixMessageWriter(buffer);
        w.Begin("8"u8, new FixHeader("EXCH"u8, "LOADGEN"u8, (int)number + 1, 0));
        w.AddInt(FixTags.OrderID, number + 1);
        w.AddInt(FixTags.ExecID, number + 1);
        w.AddChar(FixTags.ExecType, (byte)'0');
        w.AddChar(FixTags.OrdStatus, (byte)'0');
        w.AddSpan(FixTags.ClOrdID, clOrdId);
        w.AddInt(StageBreakdown.ReceivedTag, 10);
        w.AddInt(StageBreakdown.JournaledTag, 20);
        w.AddInt(StageBreakdown.MatchedTag, 20);
        w.AddInt(StageBreakdown.SentTag, 30);
        return buffer.AsSpan(0, w.Finish()).ToArray();
    }
}
