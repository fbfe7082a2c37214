using System.Buffers;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Gateway;
using Exchange.Fix.Session;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>The gateway's steady-state steps allocate nothing after warm-up.</summary>
[Collection(ZeroAllocationCollection.Name)]
public sealed class GatewayAllocationTests
{
    private const int Warmup = 20_000;
    private const int Measured = 20_000;

    /// <summary>A NewOrderSingle with the given MsgSeqNum, encoded without allocating (the test's own input side).</summary>
    private static int EncodeOrder(Span<byte> destination, int seq, long now, bool possResendEveryOther) =>
        new OrderWriter(destination).Write(seq, now, possResendEveryOther);

    /// <summary>
    /// Orders of two layouts in turn (every other one a possible resend), so none is parsed along the last layout:
    /// the full tokenizer, the dictionary walk and the usual mapping.
    /// </summary>
    [Fact]
    public void Inbound_order_step_of_alternating_layouts_allocates_nothing()
    {
        long fused = RunOrderStepsAllocatingNothing(possResendEveryOther: true);

        Assert.Equal(0, fused);
    }

    /// <summary>Orders of one layout, as a client sends them: each after the first takes the fused read.</summary>
    [Fact]
    public void Inbound_order_step_of_one_layout_allocates_nothing()
    {
        long fused = RunOrderStepsAllocatingNothing(possResendEveryOther: false);

        Assert.Equal(Warmup + Measured - 1, fused);
    }

    /// <summary>Asserts the measured steps allocated nothing; returns how many orders took the fused read.</summary>
    private static long RunOrderStepsAllocatingNothing(bool possResendEveryOther)
    {
        using var h = new GatewayHarness(storeFactory: _ => new MemorySessionStore());
        h.Publisher.Record = false;
        h.LogOn();
        byte[] wire = new byte[512];
        int seq = 2;

        void Step()
        {
            int length = EncodeOrder(wire, seq++, h.Clock.UtcNowNanos, possResendEveryOther);
            var buffer = new ReadOnlySequence<byte>(wire, 0, length);
            h.Handler.Process(buffer, out _, out _);
        }

        for (int i = 0; i < Warmup; i++)
        {
            Step();
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < Measured; i++)
        {
            Step();
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        Assert.Equal(Warmup + Measured, h.Publisher.Count);
        Assert.Equal(seq, h.Gateway.GetSession(0).NextTargetSeqNum);
        Assert.Empty(h.TakeSent());
        return h.Handler.FusedOrders;
    }

    [Fact]
    public void Send_event_allocates_nothing()
    {
        using var h = new GatewayHarness(new GatewayOptions { StageTimestamps = true }, _ => new MemorySessionStore());
        h.LogOn();
        EngineEvent fill = GatewayOutboundTests.Event(EventType.Trade, 60, 40, 40);
        var times = new StageTimes { Received = 1, Journaled = 2, Matched = 3 };

        void Step()
        {
            // Fills and order status reports (the answer to a possible resend of a live order) in turn.
            fill.EventId++;
            fill.Type = fill.Type == EventType.Trade ? EventType.OrderStatus : EventType.Trade;
            h.Gateway.SendEvent(fill, times);
            h.Connection.Recorded.Clear();
        }

        for (int i = 0; i < Warmup; i++)
        {
            Step();
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < Measured; i++)
        {
            Step();
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        Assert.Equal(2 + Warmup + Measured, h.Gateway.GetSession(0).NextSenderSeqNum);
    }

    private readonly ref struct OrderWriter(Span<byte> destination)
    {
        private readonly Span<byte> _destination = destination;

        public int Write(int seq, long now, bool possResendEveryOther)
        {
            var w = new FixMessageWriter(_destination);
            w.Begin("D"u8, new FixHeader("CLIENT1"u8, "VENUE"u8, seq, now));
            if (possResendEveryOther && seq % 2 == 0)
            {
                w.AddBool(FixTags.PossResend, true); // every other order a possible resend: read into the command
            }

            w.AddSpan(FixTags.ClOrdID, "ORD-1"u8);
            w.AddSpan(FixTags.Symbol, "AAPL"u8);
            w.AddChar(FixTags.Side, (byte)'1');
            w.AddTimestamp(FixTags.TransactTime, now);
            w.AddInt(FixTags.OrderQty, 100);
            w.AddChar(FixTags.OrdType, (byte)'2');
            w.AddSpan(FixTags.Price, "143.42"u8);
            w.AddChar(FixTags.TimeInForce, (byte)'0');
            return w.Finish();
        }
    }
}
