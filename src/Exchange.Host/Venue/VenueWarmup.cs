using System.Buffers;
using System.Diagnostics;
using System.Text;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Gateway;
using Exchange.Fix.Session;
using Exchange.Host.Configuration;
using Microsoft.Extensions.Logging.Abstractions;

namespace Exchange.Host.Venue;

/// <summary>What a warm-up did: messages fed in, engine events sent back as reports, and some of those by type.</summary>
internal readonly record struct WarmupResult(
    int Messages, int Events, int Trades, int Replaced, int Cancelled, int Rejected, int OrderStatuses, int MassCancelReports, TimeSpan Elapsed);

/// <summary>
/// Runs a scripted client session through a scratch FIX gateway and matching engine, built from the same types as the
/// venue's, before the venue accepts connections. The venue runs with tiered compilation off, so each method is
/// compiled, fully optimised, on its first call; without this the first real logon and orders paid for it (the first
/// order after a cold start took ~48 ms).
/// </summary>
/// <remarks>
/// Touches no venue state: its own engine, a gateway whose sessions keep their stores in memory and log nowhere, a
/// connection that discards what it is sent, no journal. What the script does not reach (sockets, rings, the journal
/// writer, market data) still compiles on first use. The script: logon, then rounds of a resting buy, a sell that
/// trades with it, a resting buy that is resent as a possible resend (an Order Status report), asked for by an order
/// status request, replaced and then cancelled, status requests for the filled buy (its final state) and for an id
/// never used (unknown), an IOC that finds nothing, an off-tick order (rejected), a resting sell met by the session's own
/// buys under self-trade prevention: a FillOrKill (killed: nothing else to fill it), an IOC that cancels itself, an IOC
/// that cancels both, a resting
/// sell taken out by a mass cancel of the symbol, a test request; then a resting buy, and logout, whose cancel on
/// disconnect takes the buy out. The scratch session limits its messages (far above what the script sends), so the
/// throttle's path is compiled too.
/// </remarks>
internal static class VenueWarmup
{
    public const int Rounds = 16;

    public static WarmupResult Run(VenueOptions options, IReadOnlyList<Instrument> instruments, IMatchingEngine engine)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(instruments);
        ArgumentNullException.ThrowIfNull(engine);
        if (options.Sessions.Count == 0 || instruments.Count == 0)
        {
            return default;
        }

        long started = Stopwatch.GetTimestamp();
        var publisher = new ScratchPublisher();
        IFixGateway gateway = new FixGatewayFactory(NullLoggerFactory.Instance, SystemClock.Instance).Create(InMemory(options), instruments, publisher, DiscardingMarketDataRequests.Instance);
        var script = new Script(options.Sessions[0], instruments[0]);
        int messages = 0, events = 0;
        Span<int> byType = stackalloc int[256];
        try
        {
            IFixConnectionReader reader = gateway.Attach(new DiscardingConnection(-1, "warm-up"));
            foreach (ReadOnlyMemory<byte> message in script.Messages(Rounds))
            {
                reader.Process(message.Span);
                messages++;
                events += ApplyPublished(publisher, engine, gateway, byType);
            }

            reader.Detach("warm-up done");

            // The session's cancel on disconnect, published as its connection ended.
            events += ApplyPublished(publisher, engine, gateway, byType);
        }
        finally
        {
            // The scratch gateway owns its sessions' (in-memory) stores.
            (gateway as IDisposable)?.Dispose();
        }

        return new WarmupResult(
            messages, events, byType[(int)EventType.Trade], byType[(int)EventType.Replaced], byType[(int)EventType.Cancelled],
            byType[(int)EventType.Rejected], byType[(int)EventType.OrderStatus], byType[(int)EventType.MassCancelReport],
            Stopwatch.GetElapsedTime(started));
    }

    /// <summary>
    /// Runs the commands the gateway published through the engine and sends their events back through the gateway;
    /// returns how many events there were and counts them by type in <paramref name="byType"/>.
    /// </summary>
    private static int ApplyPublished(ScratchPublisher publisher, IMatchingEngine engine, IFixGateway gateway, Span<int> byType)
    {
        int events = 0;
        foreach (Core.Commands.Command command in publisher.Take())
        {
            // The session trades with itself (its buys and sells are the script's only counterparties), so only the
            // orders the script names for it get self-trade prevention, as a session configured for it would.
            Core.Commands.Command applied = command;
            applied.SelfTradePrevention = ScriptedSelfTradePrevention(command.ClOrdId.AsSpan());
            foreach (ref readonly EngineEvent engineEvent in engine.Process(applied))
            {
                gateway.SendEvent(engineEvent, default);
                events++;
                byType[(int)engineEvent.Type]++;
            }
        }

        return events;
    }

    /// <summary>The self-trade prevention the script gives its WT orders: WTR cancel resting, WTI incoming, WTX both.</summary>
    private static SelfTradePrevention ScriptedSelfTradePrevention(ReadOnlySpan<byte> clOrdId) =>
        clOrdId.StartsWith("WTR"u8) ? SelfTradePrevention.CancelResting :
        clOrdId.StartsWith("WTI"u8) ? SelfTradePrevention.CancelIncoming :
        clOrdId.StartsWith("WTX"u8) ? SelfTradePrevention.CancelBoth :
        SelfTradePrevention.None;

    /// <summary>The configuration with every session's store in memory, so the warm-up writes no session file.</summary>
    private static VenueOptions InMemory(VenueOptions options) => new()
    {
        Listen = options.Listen,
        Pipeline = options.Pipeline,
        Sessions = options.Sessions.ConvertAll(s => new SessionOptions
        {
            SenderCompId = s.SenderCompId,
            TargetCompId = s.TargetCompId,
            HeartBtInt = s.HeartBtInt,
            StorePath = string.Empty,
            StoreFsync = s.StoreFsync,
            MemoryStoreMegabytes = 1, // a few messages; the smallest ring is the quickest to pre-fault
            CancelOnDisconnect = true,
            MaxApplicationMessagesPerSecond = 1_000_000,
        }),
    };

    /// <summary>The client's side of the scripted session: each message encoded with the next sequence number.</summary>
    private sealed class Script(SessionOptions session, Instrument instrument)
    {
        private readonly byte[] _client = Encoding.ASCII.GetBytes(session.TargetCompId);
        private readonly byte[] _venue = Encoding.ASCII.GetBytes(session.SenderCompId);
        private readonly byte[] _symbol = Encoding.ASCII.GetBytes(instrument.Symbol);
        private readonly long _mid = (instrument.MinPrice + ((instrument.MaxPrice - instrument.MinPrice) / 2)) / instrument.TickSize * instrument.TickSize;
        private int _seq;

        public IEnumerable<ReadOnlyMemory<byte>> Messages(int rounds)
        {
            yield return Logon();
            long tick = instrument.TickSize;
            long lot = instrument.LotSize;
            for (int r = 0; r < rounds; r++)
            {
                yield return Order($"WB{r}", Side.Buy, _mid, lot, TimeInForce.Day);
                yield return Order($"WS{r}", Side.Sell, _mid, lot, TimeInForce.Day);
                yield return Order($"WP{r}", Side.Buy, _mid - tick, lot, TimeInForce.Day);
                yield return Order($"WP{r}", Side.Buy, _mid - tick, lot, TimeInForce.Day, possResend: true);
                yield return StatusRequest($"WP{r}", Side.Buy);
                yield return Amend(replace: true, $"WQ{r}", $"WP{r}", Side.Buy, _mid - tick, 2 * lot);
                yield return Amend(replace: false, $"WC{r}", $"WQ{r}", Side.Buy, _mid - tick, 2 * lot);
                yield return StatusRequest($"WB{r}", Side.Buy);
                yield return StatusRequest($"WU{r}", Side.Buy);
                yield return Order($"WI{r}", Side.Sell, _mid + (10 * tick), lot, TimeInForce.ImmediateOrCancel);
                if (tick > 1)
                {
                    yield return Order($"WX{r}", Side.Buy, _mid + 1, lot, TimeInForce.Day);
                }

                yield return Order($"WTS{r}", Side.Sell, _mid + (2 * tick), lot, TimeInForce.Day);
                yield return Order($"WTRF{r}", Side.Buy, _mid + (2 * tick), lot, TimeInForce.FillOrKill);
                yield return Order($"WTI{r}", Side.Buy, _mid + (2 * tick), lot, TimeInForce.ImmediateOrCancel);
                yield return Order($"WTX{r}", Side.Buy, _mid + (2 * tick), lot, TimeInForce.ImmediateOrCancel);
                yield return Order($"WM{r}", Side.Sell, _mid + (10 * tick), lot, TimeInForce.Day);
                yield return MassCancel($"WMC{r}");

                yield return TestRequest();
            }

            yield return Order("WLAST", Side.Buy, _mid - tick, lot, TimeInForce.Day);
            yield return Logout();
        }

        private ReadOnlyMemory<byte> Logon()
        {
            byte[] buffer = NewBuffer();
            FixMessageWriter w = Start(buffer, "A"u8);
            w.AddInt(FixTags.EncryptMethod, 0);
            w.AddInt(FixTags.HeartBtInt, session.HeartBtInt);
            return buffer.AsMemory(0, w.Finish());
        }

        private ReadOnlyMemory<byte> Order(string clOrdId, Side side, long price, long quantity, TimeInForce tif, bool possResend = false)
        {
            byte[] buffer = NewBuffer();
            FixMessageWriter w = Start(buffer, "D"u8);
            if (possResend)
            {
                w.AddBool(FixTags.PossResend, true); // a header field: right after the writer's own header fields
            }

            w.AddSpan(FixTags.ClOrdID, Encoding.ASCII.GetBytes(clOrdId));
            w.AddSpan(FixTags.Symbol, _symbol);
            w.AddChar(FixTags.Side, (byte)side);
            w.AddTimestamp(FixTags.TransactTime, SystemClock.Instance.UtcNowNanos);
            w.AddInt(FixTags.OrderQty, quantity);
            w.AddChar(FixTags.OrdType, (byte)OrderType.Limit);
            w.AddPrice(FixTags.Price, price, instrument.PriceDecimals);
            w.AddChar(FixTags.TimeInForce, (byte)tif);
            return buffer.AsMemory(0, w.Finish());
        }

        /// <summary>A replace (G) or a cancel (F) of <paramref name="original"/>.</summary>
        private ReadOnlyMemory<byte> Amend(bool replace, string clOrdId, string original, Side side, long price, long quantity)
        {
            byte[] buffer = NewBuffer();
            FixMessageWriter w = Start(buffer, replace ? "G"u8 : "F"u8);
            w.AddSpan(FixTags.OrigClOrdID, Encoding.ASCII.GetBytes(original));
            w.AddSpan(FixTags.ClOrdID, Encoding.ASCII.GetBytes(clOrdId));
            w.AddSpan(FixTags.Symbol, _symbol);
            w.AddChar(FixTags.Side, (byte)side);
            w.AddTimestamp(FixTags.TransactTime, SystemClock.Instance.UtcNowNanos);
            w.AddInt(FixTags.OrderQty, quantity);
            if (replace)
            {
                w.AddChar(FixTags.OrdType, (byte)OrderType.Limit);
                w.AddPrice(FixTags.Price, price, instrument.PriceDecimals);
            }

            return buffer.AsMemory(0, w.Finish());
        }

        private ReadOnlyMemory<byte> StatusRequest(string clOrdId, Side side)
        {
            byte[] buffer = NewBuffer();
            FixMessageWriter w = Start(buffer, "H"u8);
            w.AddSpan(FixTags.ClOrdID, Encoding.ASCII.GetBytes(clOrdId));
            w.AddSpan(FixTags.OrdStatusReqID, "WARMUP"u8);
            w.AddSpan(FixTags.Symbol, _symbol);
            w.AddChar(FixTags.Side, (byte)side);
            return buffer.AsMemory(0, w.Finish());
        }

        /// <summary>A mass cancel (q) of the session's orders in the symbol.</summary>
        private ReadOnlyMemory<byte> MassCancel(string clOrdId)
        {
            byte[] buffer = NewBuffer();
            FixMessageWriter w = Start(buffer, "q"u8);
            w.AddSpan(FixTags.ClOrdID, Encoding.ASCII.GetBytes(clOrdId));
            w.AddChar(FixTags.MassCancelRequestType, (byte)'1');
            w.AddSpan(FixTags.Symbol, _symbol);
            w.AddTimestamp(FixTags.TransactTime, SystemClock.Instance.UtcNowNanos);
            return buffer.AsMemory(0, w.Finish());
        }

        private ReadOnlyMemory<byte> TestRequest()
        {
            byte[] buffer = NewBuffer();
            FixMessageWriter w = Start(buffer, "1"u8);
            w.AddSpan(FixTags.TestReqID, "WARMUP"u8);
            return buffer.AsMemory(0, w.Finish());
        }

        private ReadOnlyMemory<byte> Logout()
        {
            byte[] buffer = NewBuffer();
            return buffer.AsMemory(0, Start(buffer, "5"u8).Finish());
        }

        private static byte[] NewBuffer() => new byte[FixMessageWriter.TypicalMaxLength];

        private FixMessageWriter Start(byte[] buffer, ReadOnlySpan<byte> msgType)
        {
            var w = new FixMessageWriter(buffer);
            w.Begin(msgType, new FixHeader(_client, _venue, ++_seq, SystemClock.Instance.UtcNowNanos));
            return w;
        }
    }

    /// <summary>Queues the gateway's commands until the caller applies them after Process returns (no re-entry).</summary>
    private sealed class ScratchPublisher : ICommandPublisher
    {
        private readonly List<Core.Commands.Command> _commands = [];

        public bool TryPublish(in Core.Commands.Command command)
        {
            _commands.Add(command);
            return true;
        }

        public Core.Commands.Command[] Take()
        {
            Core.Commands.Command[] taken = [.. _commands];
            _commands.Clear();
            return taken;
        }
    }
}
