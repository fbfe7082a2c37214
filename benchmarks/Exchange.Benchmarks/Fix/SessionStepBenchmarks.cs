using BenchmarkDotNet.Attributes;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Gateway;
using Exchange.Fix.Session;

namespace Exchange.Benchmarks.Fix;

/// <summary>
/// The gateway's per-message cost around the session layer, for a logged-on session over an in-memory store:
/// a NewOrderSingle through framer, parse, dictionary validation, session sequencing and mapping to a no-op publisher,
/// handed over as the Inline venue's polling thread hands it (a span of its socket's receive buffer);
/// and a fill ExecutionReport from SendEvent through the session to a no-op connection. Target: 0 B allocated.
/// The store copies each stored body like <see cref="MemorySessionStore"/> but keeps none, so millions of
/// invocations do not grow it (growth would show up as allocation that a venue amortises differently).
/// </summary>
[MemoryDiagnoser]
[MinColumn]
[MedianColumn]
public class SessionStepBenchmarks
{
    private readonly byte[] _wire = new byte[512];
    private byte[] _orderTwo = [];
    private FixGateway _gateway = null!;
    private ManualClock _clock = null!;
    private DiscardingConnection _connection = null!;
    private ConnectionHandler _handler = null!;
    private CopyOnlyStore _store = null!;
    private EngineEvent _fill;
    private int _seq;

    [GlobalSetup]
    public void Setup()
    {
        _clock = new ManualClock();
        _connection = new DiscardingConnection(1, "benchmark");
        _gateway = new FixGateway(
            [new SessionConfig("VENUE", "CLIENT1")],
            [new Instrument(0, "AAPL", 4, 1, 1, 1, 100_000_000)],
            _clock,
            _ => _store = new CopyOnlyStore(),
            new NullPublisher(),
            DiscardingMarketDataRequests.Instance,
            new GatewayOptions(),
            new NullLog());
        ConnectionHandler handler = _gateway.CreateHandler(_connection);
        _handler = handler;
        int length = Logon(_wire);
        handler.Process(_wire.AsSpan(0, length));
        if (!_gateway.IsLoggedOn(0))
        {
            throw new InvalidOperationException("benchmark session did not log on");
        }

        _seq = 2;
        _fill = ReferenceFill.Create(_clock.UtcNowNanos);

        // The session-layer benchmark replays one parsed NewOrderSingle (MsgSeqNum 2) with the store rewound to 2.
        length = NewOrder(_wire, 2, _clock.UtcNowNanos);
        _orderTwo = _wire.AsSpan(0, length).ToArray();
        _handler.Process(_orderTwo);
        if (_store.NextTargetSeqNum != 3 || SessionLayerOnly() != 3)
        {
            throw new InvalidOperationException("benchmark order was not accepted in sequence");
        }

        if (InboundNewOrderReplayed() != _orderTwo.Length || _store.NextTargetSeqNum != 3)
        {
            throw new InvalidOperationException("replayed benchmark order was not accepted in sequence");
        }

        _seq = 3;
    }

    /// <summary>Includes encoding the input message (each needs the next MsgSeqNum); see <see cref="EncodeNewOrderInputOnly"/>.</summary>
    [Benchmark]
    public int InboundNewOrderSessionStep()
    {
        int length = NewOrder(_wire, _seq++, _clock.UtcNowNanos);
        _handler.Process(_wire.AsSpan(0, length));
        return length;
    }

    /// <summary>
    /// The same step on one NewOrderSingle (MsgSeqNum 2) encoded once at setup, with the store rewound to 2 before
    /// each: no input encoding to subtract, and the frame is read as a venue reads a socket's receive buffer, long
    /// after it was written (the subtracted form reads bytes written nanoseconds before, which stalls the loads).
    /// </summary>
    [Benchmark]
    public int InboundNewOrderReplayed()
    {
        _store.SetNextTargetSeqNum(2);
        return _handler.Process(_orderTwo);
    }

    /// <summary>Baseline: the input encoding alone, to subtract from <see cref="InboundNewOrderSessionStep"/>.</summary>
    [Benchmark]
    public int EncodeNewOrderInputOnly() => NewOrder(_wire, _seq, _clock.UtcNowNanos);

    /// <summary>
    /// The session layer alone: the already parsed and validated NewOrderSingle (the codec's part, timed by
    /// <see cref="FixCodecBenchmarks.NewOrderSingleToCommand"/>) through header extraction, session lock, CompID,
    /// SendingTime and MsgSeqNum checks, mapping (<see cref="FixInboundStageBenchmarks.Map"/>) and publishing.
    /// The store is rewound first so the same MsgSeqNum is in sequence every time.
    /// </summary>
    [Benchmark]
    public int SessionLayerOnly()
    {
        _store.SetNextTargetSeqNum(2);
        _handler.OnParsed();
        return _store.NextTargetSeqNum;
    }

    [Benchmark]
    public long SendEventFill()
    {
        _fill.EventId++;
        _gateway.SendEvent(_fill, default);
        return _fill.EventId;
    }

    private int Logon(Span<byte> destination)
    {
        var w = new FixMessageWriter(destination);
        w.Begin("A"u8, new FixHeader("CLIENT1"u8, "VENUE"u8, 1, _clock.UtcNowNanos));
        w.AddInt(FixTags.EncryptMethod, 0);
        w.AddInt(FixTags.HeartBtInt, 0);
        return w.Finish();
    }

    private static int NewOrder(Span<byte> destination, int seq, long now)
    {
        var w = new FixMessageWriter(destination);
        w.Begin("D"u8, new FixHeader("CLIENT1"u8, "VENUE"u8, seq, now));
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

    private sealed class CopyOnlyStore : ISessionStore
    {
        private readonly byte[] _copy = new byte[8 * 1024];

        public int NextSenderSeqNum { get; private set; } = 1;

        public int NextTargetSeqNum { get; private set; } = 1;

        public void SetNextSenderSeqNum(int value) => NextSenderSeqNum = value;

        public void SetNextTargetSeqNum(int value) => NextTargetSeqNum = value;

        public long LastEventId { get; private set; } = ISessionStore.UnknownEventId;

        public void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body, long eventId = 0, bool queued = false)
        {
            body.CopyTo(_copy);
            NextSenderSeqNum = msgSeqNum + 1;
            if (eventId > 0)
            {
                LastEventId = eventId;
            }
        }

        public void SetLastEventId(long eventId) => LastEventId = eventId;

        public bool TryGetOutbound(int msgSeqNum, out StoredMessage message)
        {
            message = default;
            return false;
        }

        public bool IsQueued(int msgSeqNum) => false;

        public void MarkDelivered(int firstSeqNum, int lastSeqNum)
        {
        }

        public int Reset(int firstQueuedSeqNum, long sendingTimeNanos)
        {
            NextSenderSeqNum = firstQueuedSeqNum;
            NextTargetSeqNum = 1;
            return 0;
        }

        public void Flush()
        {
        }

        public void Dispose()
        {
        }
    }

    private sealed class ManualClock : IClock
    {
        public long UtcNowNanos { get; } = (new DateTime(2026, 3, 2, 9, 30, 0, DateTimeKind.Utc).Ticks - DateTime.UnixEpoch.Ticks) * 100;

        public long MonotonicNanos => 1_000_000_000;
    }

    private sealed class NullPublisher : ICommandPublisher
    {
        public bool TryPublish(in Command command) => true;
    }

    private sealed class NullLog : IGatewayLog
    {
        public void Info(string message)
        {
        }

        public void Warn(string message)
        {
        }
    }
}
