using System.IO.Pipelines;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Exchange.Fix.Gateway;
using Exchange.Host.Configuration;
using Exchange.Host.Metrics;
using Exchange.Host.Pipeline;
using Exchange.Host.Venue;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// The host's share of the hot path, ingress → matcher (real engine and store from the plugins) → sender, run on
/// the test thread slot by slot (rings without processor threads), so the current thread's allocation counter
/// covers all of it.
/// </summary>
[Collection(ZeroAllocationCollection.Name)]
public sealed class VenueAllocationTests
{
    private const int Pairs = 128;

    [Fact]
    public void Ingress_matcher_and_sender_allocate_nothing_per_command_in_steady_state()
    {
        using var directory = new TempVenueDirectory();
        VenueOptions options = VenueTestOptions.Create(directory.Path);
        IReadOnlyList<Instrument> instruments = InstrumentFactory.Create(options.Instruments);
        VenueEngine engine = VenueEngine.FromPlugins(options, instruments);

        var inbound = new SequenceRing<InboundSlot>(1024, ProducerMode.Multi);
        var outbound = new SequenceRing<OutboundSlot>(1024, ProducerMode.Single);
        var ingress = new CommandIngress(inbound);
        var counters = new MatcherCounters();
        var matcher = new MatcherHandler(engine.Engine, outbound, new BookPublisher(engine.Engine, engine.Store, instruments.Count), counters);
        var gateway = new CountingGateway();
        using var metrics = new VenueMetrics(counters);
        var sender = new SenderHandler(gateway, new DurabilityGate(new Sequence(long.MaxValue)), WaitStrategyKind.Blocking, metrics);

        // A buy rests, a sell from the other owner fills it: every pair trades and leaves the book as it was. The round
        // ends with a new trading day, so its client ids may be used again in the next.
        Command[] commands = new Command[(2 * Pairs) + 1];
        for (int i = 0; i < Pairs; i++)
        {
            commands[2 * i] = VenueTestOptions.NewOrder(i, owner: 0, Side.Buy, price: 1_000_000 - (i % 8 * 100), quantity: 10);
            commands[(2 * i) + 1] = VenueTestOptions.NewOrder(i, owner: 1, Side.Sell, price: 990_000, quantity: 10);
        }

        commands[^1] = new Command { Type = CommandType.NewTradingDay };

        long consumed = -1;
        void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                Assert.True(ingress.TryPublish(in commands[i % commands.Length]));
                long sequence = inbound.Cursor.Value;
                matcher.OnEvent(ref inbound[sequence], sequence, endOfBatch: true);
                long published = outbound.Cursor.Value;
                for (long s = consumed + 1; s <= published; s++)
                {
                    sender.OnEvent(ref outbound[s], s, s == published);
                }

                consumed = published;
            }
        }

        // Whole rounds only, so the book is empty at the end.
        int round = commands.Length;
        Run(round * 195);
        long allocated = long.MaxValue;
        for (int attempt = 0; attempt < 5 && allocated != 0; attempt++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            Run(round * 80);
            allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        }

        Assert.Equal(0, allocated);
        Assert.Equal(0, engine.Engine.RestingOrderCount);
        Assert.True(counters.Trades >= 20_000 / 2, $"trades: {counters.Trades}");

        // Accepted for both orders and two trade sides per pair: four reports per pair.
        Assert.Equal(2 * counters.Orders, gateway.Sent);
    }

    /// <summary>Counts SendEvent calls; nothing else is used on this path.</summary>
    private sealed class CountingGateway : IFixGateway
    {
        public long Sent { get; private set; }

        public int SessionCount => 2;

        public long RejectsSent => 0;

        public MessageRejects MessageRejectsSent => default;

        public bool IsLoggedOn(int ownerId) => true;

        public void SendEvent(in EngineEvent engineEvent, in StageTimes times) => Sent++;

        public bool RecoverEvent(in EngineEvent engineEvent) => false;

        public long CompleteRecovery(long lastEventId) => lastEventId;

        public Task RunConnectionAsync(IFixConnection connection, PipeReader input, CancellationToken cancellationToken) => throw new NotSupportedException();

        public IFixConnectionReader Attach(IFixConnection connection) => throw new NotSupportedException();

        public void SendMarketDataSnapshot(int ownerId, in MarketDataSubscription subscription, in BookDepth depth) => throw new NotSupportedException();

        public void SendMarketDataIncremental(int ownerId, in MarketDataSubscription subscription, in BookDepth previous, in BookDepth current) => throw new NotSupportedException();

        public void Poll() => throw new NotSupportedException();

        public bool PrepareWhileIdle() => false;

        public Task LogoutAllAsync(string text, TimeSpan timeout) => throw new NotSupportedException();
    }
}
