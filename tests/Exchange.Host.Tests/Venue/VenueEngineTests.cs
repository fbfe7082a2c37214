using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Exchange.Host.Configuration;
using Exchange.Host.Venue;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>The venue with the real engine and store loaded from the strategy plugins (copied beside the tests).</summary>
public sealed class VenueEngineTests
{
    [Fact]
    public void Unknown_strategy_names_fail_with_every_bad_key_and_the_available_names()
    {
        using var directory = new TempVenueDirectory();
        VenueOptions options = VenueTestOptions.Create(directory.Path);
        options.Strategies.OrderList = "NoSuchList";
        options.Strategies.MarketData = "Telepathy";
        IReadOnlyList<Instrument> instruments = InstrumentFactory.Create(options.Instruments);

        VenueConfigurationException error = Assert.Throws<VenueConfigurationException>(() => VenueEngine.FromPlugins(options, instruments));

        Assert.Equal(2, error.Errors.Count);
        Assert.Contains("Venue:Strategies:OrderList", error.Errors[0], StringComparison.Ordinal);
        Assert.Contains("'NoSuchList'", error.Errors[0], StringComparison.Ordinal);
        Assert.Contains("IntrusiveList", error.Errors[0], StringComparison.Ordinal);
        Assert.Contains("Venue:Strategies:MarketData", error.Errors[1], StringComparison.Ordinal);
        Assert.Contains("SeqLock", error.Errors[1], StringComparison.Ordinal);
    }

    [Fact]
    public async Task Replaying_the_journal_rebuilds_books_order_ids_and_market_data_exactly()
    {
        using var directory = new TempVenueDirectory();
        var firstRun = new List<EngineEvent>();
        var gateway = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, gateway, null, out _))
        {
            await venue.StartAsync(CancellationToken.None);
            Publish(gateway, VenueTestOptions.NewOrder(1, owner: 0, Side.Buy, price: 1_000_000, quantity: 100));
            Publish(gateway, VenueTestOptions.NewOrder(2, owner: 1, Side.Sell, price: 1_000_000, quantity: 40));
            Publish(gateway, VenueTestOptions.NewOrder(3, owner: 0, Side.Buy, price: 990_000, quantity: 50));
            Publish(gateway, VenueTestOptions.NewOrder(4, owner: 1, Side.Sell, price: 1_010_000, quantity: 70, instrument: 1));

            // Accepted, then accepted + two trade sides, accepted, accepted.
            firstRun.AddRange(gateway.WaitForEvents(6).Select(e => e.Event));
            await venue.StopAsync(CancellationToken.None);
        }

        Assert.Equal(2, firstRun.Count(e => e.Type == EventType.Trade));

        var gatewayAfter = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, gatewayAfter, null, out _))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(4, venue.RecoveredCommands);
            IMatchingEngine engine = venue.Engine!.Engine;
            Assert.Equal(3, engine.RestingOrderCount);
            IReadOnlyList<RestingOrder> bids = engine.GetRestingOrders(0, Side.Buy);
            Assert.Equal([60L, 50L], bids.Select(o => o.LeavesQuantity));
            Assert.Equal(
                firstRun.Where(e => e.Type == EventType.Accepted && e.InstrumentId == 0 && e.Side == Side.Buy).Select(e => e.OrderId),
                bids.Select(o => o.OrderId));

            // Market data was republished from the recovered books before any client could subscribe.
            var depth = default(BookDepth);
            Assert.True(venue.Engine.Store.TryRead(0, ref depth));
            Assert.Equal(2, depth.BidCount);
            Assert.Equal(60, depth.Bids[0].Quantity);
            Assert.True(venue.Engine.Store.TryRead(1, ref depth));
            Assert.Equal(70, depth.Asks[0].Quantity);

            // Client order ids came back: reusing one is a duplicate; cancelling a recovered order works.
            Publish(gatewayAfter, VenueTestOptions.NewOrder(3, owner: 0, Side.Buy, price: 990_000, quantity: 5));
            Command cancel = new()
            {
                Type = CommandType.Cancel,
                InstrumentId = 0,
                OwnerId = 0,
                Side = Side.Buy,
                ClOrdId = ClOrdId.From("C-1"),
                OrigClOrdId = ClOrdId.From("O-1"),
            };
            Publish(gatewayAfter, cancel);
            List<EngineEvent> events = gatewayAfter.WaitForEvents(2).Select(e => e.Event).ToList();
            Assert.Equal(EventType.Rejected, events[0].Type);
            Assert.Equal(RejectReason.DuplicateClOrdId, events[0].RejectReason);
            Assert.Equal(EventType.Cancelled, events[1].Type);
            Assert.Equal(40, events[1].CumulativeQuantity);

            // Event ids continue where the first run stopped (a natural ExecID never repeats across restarts).
            Assert.True(events[0].EventId > firstRun.Max(e => e.EventId));
            await venue.StopAsync(CancellationToken.None);
        }
    }

    [Fact]
    public async Task Replaying_the_journal_rebuilds_the_days_used_client_order_ids_and_where_the_day_began()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, gateway, null, out _))
        {
            await venue.StartAsync(CancellationToken.None);

            // The day before: an order and its cancel. Then a new trading day (no events), journalled like any command
            // and stamped, as the venue's own are, with the time it began (the clock's day, so a restart rolls nothing).
            Publish(gateway, VenueTestOptions.NewOrder(1));
            Publish(gateway, Cancel("C-1", "O-1"));
            Publish(gateway, new Command { Type = CommandType.NewTradingDay, Timestamp = VenueTestOptions.TestTime });

            // Today: an IOC that expires, a sell and a buy that fill each other, an order and its cancel; none rests.
            Command ioc = VenueTestOptions.NewOrder(2, price: 1_010_000);
            ioc.TimeInForce = TimeInForce.ImmediateOrCancel;
            Publish(gateway, ioc);
            Publish(gateway, VenueTestOptions.NewOrder(3, owner: 1, Side.Sell, quantity: 40));
            Publish(gateway, VenueTestOptions.NewOrder(4, quantity: 40));
            Publish(gateway, VenueTestOptions.NewOrder(5, price: 990_000));
            Publish(gateway, Cancel("C-2", "O-5"));
            gateway.WaitForEvents(10);
            await venue.StopAsync(CancellationToken.None);
        }

        var gatewayAfter = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, gatewayAfter, null, out _))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(0, venue.Engine!.Engine.RestingOrderCount);

            Publish(gatewayAfter, VenueTestOptions.NewOrder(1, price: 990_000)); // yesterday's ids are free again
            Publish(gatewayAfter, Cancel("C-1", "O-1"));
            Publish(gatewayAfter, VenueTestOptions.NewOrder(2, price: 990_000)); // today's are not, whatever became of them
            Publish(gatewayAfter, VenueTestOptions.NewOrder(3, owner: 1, Side.Sell, price: 1_010_000));
            Publish(gatewayAfter, VenueTestOptions.NewOrder(4, price: 990_000));
            Publish(gatewayAfter, VenueTestOptions.NewOrder(5, price: 990_000));
            Command cancelIdAsOrder = VenueTestOptions.NewOrder(6, price: 990_000);
            cancelIdAsOrder.ClOrdId = ClOrdId.From("C-2");
            Publish(gatewayAfter, cancelIdAsOrder);
            Publish(gatewayAfter, VenueTestOptions.NewOrder(3, owner: 0, price: 990_000)); // another owner's id

            List<EngineEvent> events = gatewayAfter.WaitForEvents(8).Select(e => e.Event).ToList();
            Assert.Equal(
                [EventType.Accepted, EventType.Cancelled, EventType.Rejected, EventType.Rejected, EventType.Rejected, EventType.Rejected, EventType.Rejected, EventType.Accepted],
                events.Select(e => e.Type));
            Assert.All(events.Where(e => e.Type == EventType.Rejected), e => Assert.Equal(RejectReason.DuplicateClOrdId, e.RejectReason));
            await venue.StopAsync(CancellationToken.None);
        }
    }

    private static Command Cancel(string clOrdId, string origClOrdId) => new()
    {
        Type = CommandType.Cancel,
        InstrumentId = 0,
        OwnerId = 0,
        Side = Side.Buy,
        ClOrdId = ClOrdId.From(clOrdId),
        OrigClOrdId = ClOrdId.From(origClOrdId),
    };

    private static void Publish(FakeGateway gateway, Command command) => Assert.True(gateway.Commands!.TryPublish(in command));
}
