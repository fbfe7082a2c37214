using System.Text;
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
    /// <summary>The MsgSeqNum of the first order after the Logon (1), which the replayed benchmarks rewind the store to.</summary>
    private const int FirstOrderSeqNum = 2;

    /// <summary>How many distinct orders the replayed step cycles through (MsgSeqNum FirstOrderSeqNum onwards).</summary>
    private const int Replays = 64;

    private readonly byte[] _wire = new byte[512];
    private readonly byte[][] _replays = new byte[Replays][];
    private int _replayIndex;
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

        _fill = ReferenceFill.Create(_clock.UtcNowNanos);
        for (int i = 0; i < Replays; i++)
        {
            // Orders differ as a client's do: MsgSeqNum, ClOrdID, side, quantity and price (also in length).
            int cents = 14342 + i;
            length = NewOrder(
                _wire,
                FirstOrderSeqNum + i,
                _clock.UtcNowNanos,
                Encoding.ASCII.GetBytes($"ORD-{i + 1}"),
                i % 2 == 0 ? (byte)'1' : (byte)'2',
                100 + (i * 7),
                Encoding.ASCII.GetBytes($"{cents / 100}.{cents % 100:D2}"));
            _replays[i] = _wire.AsSpan(0, length).ToArray();
        }

        for (int i = 0; i < Replays; i++)
        {
            InboundNewOrderReplayed();
        }

        if (_store.NextTargetSeqNum != FirstOrderSeqNum + Replays || _replayIndex != 0)
        {
            throw new InvalidOperationException("replayed benchmark orders were not accepted in sequence");
        }

        // The session-layer benchmark replays the first order, parsed once, with the store rewound to its MsgSeqNum.
        // Parsed the usual way (typed values stored by the plan's checks), as every message the fused read does not
        // take reaches the session layer: cancels, replaces, and orders of a new layout.
        _store.SetNextTargetSeqNum(FirstOrderSeqNum);
        _handler.ParseForSessionLayer(_replays[0]);
        _handler.OnParsed();
        if (_store.NextTargetSeqNum != FirstOrderSeqNum + 1 || SessionLayerOnly() != FirstOrderSeqNum + 1)
        {
            throw new InvalidOperationException("benchmark order was not accepted in sequence");
        }

        _seq = FirstOrderSeqNum + 1;
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
    /// The same step on orders encoded once at setup: <see cref="Replays"/> distinct NewOrderSingles in sequence, the
    /// store rewound to the first one's MsgSeqNum each time round. No input encoding to subtract, and each frame is
    /// read as a venue reads a socket's receive buffer, long after it was written (the subtracted form reads bytes
    /// written nanoseconds before, and its loads stall on those stores).
    /// </summary>
    [Benchmark]
    public int InboundNewOrderReplayed()
    {
        int i = _replayIndex;
        if (i == 0)
        {
            _store.SetNextTargetSeqNum(FirstOrderSeqNum);
        }

        _replayIndex = i + 1 == Replays ? 0 : i + 1;
        return _handler.Process(_replays[i]);
    }

    /// <summary>Baseline: the input encoding alone, to subtract from <see cref="InboundNewOrderSessionStep"/>.</summary>
    [Benchmark]
    public int EncodeNewOrderInputOnly() => NewOrder(_wire, _seq, _clock.UtcNowNanos);

    /// <summary>
    /// The session layer alone, on the usual path (not the fused read, <see cref="InboundNewOrderReplayed"/>'s path):
    /// the already parsed and validated NewOrderSingle (the codec's part, timed by
    /// <see cref="FixCodecBenchmarks.NewOrderSingleToCommand"/>) through header extraction, session lock, CompID,
    /// SendingTime and MsgSeqNum checks, mapping (<see cref="FixInboundStageBenchmarks.Map"/>) and publishing.
    /// The store is rewound first so the same MsgSeqNum is in sequence every time.
    /// </summary>
    [Benchmark]
    public int SessionLayerOnly()
    {
        _store.SetNextTargetSeqNum(FirstOrderSeqNum);
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

    private static int NewOrder(Span<byte> destination, int seq, long now) =>
        NewOrder(destination, seq, now, "ORD-1"u8, (byte)'1', 100, "143.42"u8);

    private static int NewOrder(Span<byte> destination, int seq, long now, ReadOnlySpan<byte> clOrdId, byte side, int quantity, ReadOnlySpan<byte> price)
    {
        var w = new FixMessageWriter(destination);
        w.Begin("D"u8, new FixHeader("CLIENT1"u8, "VENUE"u8, seq, now));
        w.AddSpan(FixTags.ClOrdID, clOrdId);
        w.AddSpan(FixTags.Symbol, "AAPL"u8);
        w.AddChar(FixTags.Side, side);
        w.AddTimestamp(FixTags.TransactTime, now);
        w.AddInt(FixTags.OrderQty, quantity);
        w.AddChar(FixTags.OrdType, (byte)'2');
        w.AddSpan(FixTags.Price, price);
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
