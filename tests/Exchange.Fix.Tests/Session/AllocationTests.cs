using System.Buffers;
using Exchange.Fix.Session;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Fix.Tests.Session;

/// <summary>The in-order session step (inbound app message + outbound ExecutionReport + heartbeat) allocates nothing.</summary>
[Collection(ZeroAllocationCollection.Name)]
public sealed class AllocationTests
{
    private sealed class DiscardingTransport : ISessionTransport
    {
        private readonly ArrayBufferWriter<byte> _output = new(64 * 1024);

        public IBufferWriter<byte> Output => _output;

        public int Messages { get; private set; }

        public void MessageWritten()
        {
            Messages++;
            _output.ResetWrittenCount();
        }

        public void Disconnect(DisconnectReason reason) => throw new InvalidOperationException($"unexpected disconnect: {reason}");
    }

    /// <summary>Answers every order with an ExecutionReport, as the gateway would.</summary>
    private sealed class EchoApplication : ISessionApplication
    {
        private readonly byte[] _body = "37=O1\u000117=E1\u0001150=0\u000139=0\u0001"u8.ToArray();

        public int Delivered { get; private set; }

        public void OnApplicationMessage(FixSession session, in InboundMessage message)
        {
            Delivered++;
            session.SendApplication("8"u8, _body);
        }

        public void OnLogon(FixSession session)
        {
        }

        public void OnDisconnected(FixSession session, DisconnectReason reason)
        {
        }
    }

    [Fact]
    public void Steady_state_inbound_and_outbound_path_allocates_nothing()
    {
        const int Warmup = 20_000; // enough for tiered JIT to settle (2 000 was not)
        const int Measured = 20_000;
        var clock = new FakeClock();
        var store = new MemorySessionStore();
        using var registry = new SessionRegistry(new TestEncoder(), clock);
        FixSession session = registry.Add(new SessionConfig(SessionHarness.Venue, SessionHarness.Client), store);
        var transport = new DiscardingTransport();
        var app = new EchoApplication();
        Assert.Equal(LogonRouting.Accepted, TestMsg.Logon(1, heartBtInt: 1).Route(registry, clock, transport, app, out _));

        byte[] msgType = "D"u8.ToArray();
        byte[] sender = "CLIENT1"u8.ToArray();
        byte[] target = "VENUE"u8.ToArray();
        byte[] raw = "8=FIX.4.4\u00019=5\u000135=D\u000110=000\u0001"u8.ToArray();
        int seq = 2;

        void Step()
        {
            var m = new InboundMessage
            {
                Type = SessionMsgType.Application,
                MsgType = msgType,
                MsgSeqNum = seq++,
                SendingTimeNanos = clock.UtcNowNanos,
                SenderCompID = sender,
                TargetCompID = target,
                Raw = raw,
            };
            session.OnMessage(m);
            clock.Advance(TimeSpan.FromMilliseconds(1100));
            session.Poll(); // 1.1 s of outbound silence: a heartbeat every step, no test request yet
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
        Assert.Equal(Warmup + Measured, app.Delivered);
        Assert.Equal(1 + (2 * (Warmup + Measured)), transport.Messages); // logon reply, then an ER and a heartbeat per step
        Assert.Equal(SessionState.Active, session.State);
    }
}
