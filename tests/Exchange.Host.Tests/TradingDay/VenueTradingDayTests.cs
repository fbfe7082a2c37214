using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Host.Configuration;
using Exchange.Host.Tests.Journal;
using Exchange.Host.Tests.Venue;
using Exchange.Host.Venue;
using Exchange.Tests.Shared;
using Xunit;

namespace Exchange.Host.Tests.TradingDay;

/// <summary>
/// The venue starts trading days itself, through its ingress, on an injected clock (days start at 00:00 UTC): at
/// start-up after a journal from an earlier day, and while running when the clock crosses the boundary, in both
/// pipeline modes. The real engine from the plugins, a fake gateway.
/// </summary>
public sealed class VenueTradingDayTests
{
    private static readonly DateTime Day = VenueTestOptions.TestDay;

    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(20);

    [Fact]
    public async Task A_restart_on_a_later_day_starts_a_new_one_before_accepting_and_a_restart_on_the_same_day_does_not()
    {
        using var directory = new TempVenueDirectory();
        var clock = new FakeClock(TradingDayCalendarTests.Nanos(Day.AddHours(22)));
        var first = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, first, null, out _, clock: clock))
        {
            await venue.StartAsync(CancellationToken.None);
            Publish(first, VenueTestOptions.NewOrder(1, price: 1_000_000));
            Publish(first, Gtc(VenueTestOptions.NewOrder(2, price: 980_000)));
            Publish(first, VenueTestOptions.NewOrder(3, price: 970_000));
            Publish(first, Cancel("C-3", "O-3"));
            first.WaitForEvents(4);
            await venue.StopAsync(CancellationToken.None);
        }

        // The same day, later: the day's ids are still used and the Day order still rests.
        clock.Set(Day.AddHours(23).AddMinutes(59));
        var sameDay = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, sameDay, null, out CapturingLoggerProvider logs, clock: clock))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(2, venue.Engine!.Engine.RestingOrderCount);
            Publish(sameDay, VenueTestOptions.NewOrder(3, price: 970_000));
            Publish(sameDay, VenueTestOptions.NewOrder(4, price: 990_000));
            List<EngineEvent> events = Events(sameDay, 2);
            Assert.Equal(RejectReason.DuplicateClOrdId, events[0].RejectReason);
            Assert.Equal(EventType.Accepted, events[1].Type);
            Assert.True(logs.Contains("Trading day 2023-11-14 00:00:00Z continues"), string.Join(Environment.NewLine, logs.Lines));
            await venue.StopAsync(CancellationToken.None);
        }

        Assert.DoesNotContain(JournalTestData.ReadAll(directory.JournalPath, out _), r => r.Command.Type == CommandType.NewTradingDay);

        // The next day: the roll is the first command after the replay, before anything is accepted.
        clock.Set(Day.AddDays(1).AddSeconds(5));
        var nextDay = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, nextDay, null, out CapturingLoggerProvider logs, clock: clock))
        {
            await venue.StartAsync(CancellationToken.None);
            List<EngineEvent> expired = Events(nextDay, 2);
            Assert.Equal(["O-1", "O-4"], expired.Select(e => e.ClOrdId.ToString()));
            Assert.All(expired, e =>
            {
                Assert.Equal((EventType.Cancelled, CancelReason.Expired, CommandType.NewTradingDay), (e.Type, e.CancelReason, e.SourceCommand));
                Assert.Equal(clock.UtcNowNanos, e.Timestamp);
                Assert.Equal(6, e.CommandSequence);
            });
            Assert.Equal(["O-2"], venue.Engine!.Engine.GetRestingOrders(0, Side.Buy).Select(o => o.ClOrdId.ToString()));

            // Yesterday's ids are free again, except a GTC order's that still rests.
            Publish(nextDay, VenueTestOptions.NewOrder(3, price: 970_000));
            Command cancelIdAsOrder = VenueTestOptions.NewOrder(5, price: 960_000);
            cancelIdAsOrder.ClOrdId = ClOrdId.From("C-3");
            Publish(nextDay, cancelIdAsOrder);
            Publish(nextDay, VenueTestOptions.NewOrder(2, price: 950_000));
            List<EngineEvent> events = Events(nextDay, 5).Skip(2).ToList();
            Assert.Equal([EventType.Accepted, EventType.Accepted, EventType.Rejected], events.Select(e => e.Type));
            Assert.Equal(RejectReason.DuplicateClOrdId, events[2].RejectReason);
            Assert.True(logs.Contains("New trading day 2023-11-15 00:00:00Z (the journal ends in the day that began 2023-11-14 00:00:00Z)"), string.Join(Environment.NewLine, logs.Lines));
            await venue.StopAsync(CancellationToken.None);
        }

        (long Sequence, Command Command) roll = Assert.Single(JournalTestData.ReadAll(directory.JournalPath, out _), r => r.Command.Type == CommandType.NewTradingDay);
        Assert.Equal(6, roll.Sequence);
        Assert.Equal(TradingDayCalendarTests.Nanos(Day.AddDays(1).AddSeconds(5)), roll.Command.Timestamp);
    }

    [Fact]
    public async Task An_order_stamped_after_the_boundary_but_journalled_before_the_roll_does_not_hide_the_roll_from_a_restart()
    {
        using var directory = new TempVenueDirectory();
        var clock = new FakeClock(TradingDayCalendarTests.Nanos(Day.AddHours(22)));
        var first = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, first, null, out _, clock: clock))
        {
            await venue.StartAsync(CancellationToken.None);
            Publish(first, VenueTestOptions.NewOrder(1, price: 1_000_000));

            // Received 50 ms into the next day; the roll would have followed within 200 ms, but the venue stops first.
            Command early = VenueTestOptions.NewOrder(2, price: 990_000);
            early.Timestamp = TradingDayCalendarTests.Nanos(Day.AddDays(1).AddMilliseconds(50));
            Publish(first, early);
            first.WaitForEvents(2);
            await venue.StopAsync(CancellationToken.None);
        }

        // The engine never left the first day, so the restart must roll: judged by the latest command it would not have.
        clock.Set(Day.AddDays(1).AddMinutes(1));
        var restarted = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, restarted, null, out CapturingLoggerProvider logs, clock: clock))
        {
            await venue.StartAsync(CancellationToken.None);

            // Both expire: an order taken before the roll counts in the day that is ending, as while running.
            List<EngineEvent> expired = Events(restarted, 2);
            Assert.Equal(["O-1", "O-2"], expired.Select(e => e.ClOrdId.ToString()));
            Assert.All(expired, e => Assert.Equal((EventType.Cancelled, CancelReason.Expired), (e.Type, e.CancelReason)));
            Assert.True(logs.Contains("New trading day 2023-11-15 00:00:00Z (the journal ends in the day that began 2023-11-14 00:00:00Z)"), string.Join(Environment.NewLine, logs.Lines));
            await venue.StopAsync(CancellationToken.None);
        }
    }

    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task Crossing_the_boundary_while_running_publishes_one_new_trading_day(string mode)
    {
        using var directory = new TempVenueDirectory();
        VenueOptions options = VenueTestOptions.Create(directory.Path);
        options.Pipeline.Mode = mode;
        options.Pipeline.MatcherWait = mode == "Inline" ? "Sleeping" : "Blocking";
        var clock = new FakeClock(TradingDayCalendarTests.Nanos(Day.AddHours(23).AddMinutes(59).AddSeconds(59)));
        var gateway = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, gateway, null, out CapturingLoggerProvider logs, options, clock))
        {
            await venue.StartAsync(CancellationToken.None);

            // Inline: the test thread publishes only while the polling thread does not (before the boundary, and after
            // the roll was seen), as the polling thread is the ring's only producer in that mode.
            Publish(gateway, VenueTestOptions.NewOrder(1, price: 1_000_000, instrument: 1));
            Publish(gateway, Gtc(VenueTestOptions.NewOrder(2, price: 990_000)));
            Events(gateway, 2);
            Assert.True(SpinWait.SpinUntil(() => venue.Counters.ClOrdIdsUsedToday == 2, Wait));
            Assert.True(SpinWait.SpinUntil(() => PublishedBids(venue, 1) == 1, Wait));
            long today = venue.TradingDay;

            clock.Advance(TimeSpan.FromSeconds(2));
            EngineEvent expired = Events(gateway, 3)[2];
            Assert.Equal((EventType.Cancelled, CancelReason.Expired, "O-1"), (expired.Type, expired.CancelReason, expired.ClOrdId.ToString()));
            Assert.Equal(clock.UtcNowNanos, expired.Timestamp);
            Assert.Equal(today + 1, venue.TradingDay);
            Assert.True(SpinWait.SpinUntil(() => venue.Counters.ClOrdIdsUsedToday == 0, Wait));

            // Market data shows the expiry in every book it touched, not only the command's (unused) instrument 0.
            Assert.True(SpinWait.SpinUntil(() => PublishedBids(venue, 1) == 0, Wait));
            Assert.Equal(1, PublishedBids(venue, 0));

            Publish(gateway, VenueTestOptions.NewOrder(1, price: 1_000_000));
            Publish(gateway, VenueTestOptions.NewOrder(2, price: 1_000_000));
            List<EngineEvent> events = Events(gateway, 5);
            Assert.Equal(EventType.Accepted, events[3].Type);
            Assert.Equal(RejectReason.DuplicateClOrdId, events[4].RejectReason);

            // Several more periodic checks on the same day: no second roll.
            await Task.Delay(TimeSpan.FromMilliseconds(700));
            Assert.True(logs.Contains("New trading day 2023-11-15 00:00:00Z (the clock passed the day's start)"), string.Join(Environment.NewLine, logs.Lines));
            await venue.StopAsync(CancellationToken.None);
        }

        List<(long Sequence, Command Command)> journal = JournalTestData.ReadAll(directory.JournalPath, out _);
        (long Sequence, Command Command) roll = Assert.Single(journal, r => r.Command.Type == CommandType.NewTradingDay);
        Assert.Equal(2, roll.Sequence);
        Assert.Equal(TradingDayCalendarTests.Nanos(Day.AddDays(1).AddSeconds(1)), roll.Command.Timestamp);
    }

    [Fact]
    public async Task The_venue_warns_once_a_day_when_80_percent_of_the_days_ids_are_used()
    {
        using var directory = new TempVenueDirectory();
        VenueOptions options = VenueTestOptions.Create(directory.Path);
        options.Pipeline.MaxClOrdIdsPerDay = 10;
        var clock = new FakeClock(TradingDayCalendarTests.Nanos(Day.AddHours(23)));
        var gateway = new FakeGateway();
        const string Warning = "8 of the day's 10 client order ids are used (at least 80%)";
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, gateway, null, out CapturingLoggerProvider logs, options, clock))
        {
            await venue.StartAsync(CancellationToken.None);
            for (int i = 0; i < 8; i++)
            {
                Publish(gateway, VenueTestOptions.NewOrder(i, price: 900_000 + (i * 100)));
            }

            Events(gateway, 8);
            Assert.True(SpinWait.SpinUntil(() => logs.Contains(Warning), Wait), string.Join(Environment.NewLine, logs.Lines));
            Publish(gateway, VenueTestOptions.NewOrder(8, price: 800_000));
            Events(gateway, 9);
            await Task.Delay(TimeSpan.FromMilliseconds(500)); // several checks: the warning is not repeated that day
            Assert.Single(logs.Lines, line => line.Contains("client order ids are used", StringComparison.Ordinal));

            // The next day (the roll expires the nine Day orders) starts counting again, and warns again.
            clock.Advance(TimeSpan.FromHours(1));
            Events(gateway, 18);
            for (int i = 0; i < 8; i++)
            {
                Publish(gateway, VenueTestOptions.NewOrder(i, price: 900_000 + (i * 100)));
            }

            Events(gateway, 26);
            Assert.True(SpinWait.SpinUntil(() => logs.Lines.Count(line => line.Contains(Warning, StringComparison.Ordinal)) == 2, Wait), string.Join(Environment.NewLine, logs.Lines));
            await venue.StopAsync(CancellationToken.None);
        }
    }

    [Fact]
    public async Task Replaying_a_journal_across_a_day_roll_rebuilds_every_event_and_the_books_exactly()
    {
        using var directory = new TempVenueDirectory();
        var clock = new FakeClock(TradingDayCalendarTests.Nanos(Day.AddHours(23).AddMinutes(59).AddSeconds(30)));
        var live = new FakeGateway();
        string before;
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, live, null, out _, clock: clock))
        {
            await venue.StartAsync(CancellationToken.None);

            // Day one: Day and GTC orders on both sides and both instruments, a partial fill.
            Publish(live, VenueTestOptions.NewOrder(1, owner: 0, Side.Buy, price: 1_000_000, quantity: 100));
            Publish(live, Gtc(VenueTestOptions.NewOrder(2, owner: 0, Side.Buy, price: 1_000_000, quantity: 50)));
            Publish(live, VenueTestOptions.NewOrder(3, owner: 1, Side.Sell, price: 1_000_000, quantity: 30));
            Publish(live, VenueTestOptions.NewOrder(4, owner: 1, Side.Sell, price: 1_020_000, quantity: 70, instrument: 1));
            Publish(live, Gtc(VenueTestOptions.NewOrder(5, owner: 1, Side.Sell, price: 1_030_000, quantity: 70, instrument: 1)));
            Publish(live, VenueTestOptions.NewOrder(6, owner: 0, Side.Sell, price: 1_010_000, quantity: 20));
            int dayOne = 1 + 1 + 3 + 1 + 1 + 1;
            Events(live, dayOne);

            // The roll expires O-1 (partly filled), O-4 and O-6.
            clock.Advance(TimeSpan.FromSeconds(31));
            Events(live, dayOne + 3);

            // Day two: yesterday's ids again, trading against the GTC orders that stayed.
            Publish(live, VenueTestOptions.NewOrder(1, owner: 0, Side.Buy, price: 1_030_000, quantity: 80, instrument: 1));
            Publish(live, VenueTestOptions.NewOrder(3, owner: 1, Side.Sell, price: 990_000, quantity: 10));
            Publish(live, VenueTestOptions.NewOrder(6, owner: 0, Side.Sell, price: 1_010_000, quantity: 20));
            Events(live, dayOne + 3 + 3 + 3 + 1);
            before = BookState(venue.Engine!.Engine);
            await venue.StopAsync(CancellationToken.None);
        }

        // The restart is on the same (second) day: the journal's roll is replayed where it was, and none is added.
        var replayed = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, replayed, null, out _, clock: clock))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(10, venue.RecoveredCommands);
            Assert.Equal(live.Events().Select(e => Describe(e.Event)), replayed.Recovered.Select(Describe));
            Assert.Contains(replayed.Recovered, e => e.CancelReason == CancelReason.Expired);
            Assert.Equal(before, BookState(venue.Engine!.Engine));
            await venue.StopAsync(CancellationToken.None);
        }

        Assert.Single(JournalTestData.ReadAll(directory.JournalPath, out _), r => r.Command.Type == CommandType.NewTradingDay);
    }

    private static Command Gtc(Command command)
    {
        command.TimeInForce = TimeInForce.GoodTillCancel;
        return command;
    }

    private static Command Cancel(string clOrdId, string origClOrdId) => new()
    {
        Type = CommandType.Cancel,
        InstrumentId = 0,
        OwnerId = 0,
        Side = Side.Buy,
        Timestamp = VenueTestOptions.TestTime,
        ClOrdId = ClOrdId.From(clOrdId),
        OrigClOrdId = ClOrdId.From(origClOrdId),
    };

    private static int PublishedBids(VenueService venue, int instrument)
    {
        var depth = default(Core.MarketData.BookDepth);
        return venue.Engine!.Store.TryRead(instrument, ref depth) ? depth.BidCount : -1;
    }

    private static void Publish(FakeGateway gateway, Command command) => Assert.True(gateway.Commands!.TryPublish(in command));

    private static List<EngineEvent> Events(FakeGateway gateway, int count) => gateway.WaitForEvents(count, Wait).Select(e => e.Event).ToList();

    private static string Describe(EngineEvent e) =>
        $"#{e.EventId} {e.Type} src={e.SourceCommand} rej={e.RejectReason} can={e.CancelReason} inst={e.InstrumentId} own={e.OwnerId} " +
        $"ord={e.OrderId} {e.Side} {e.TimeInForce} px={e.Price} qty={e.OrderQuantity} leaves={e.LeavesQuantity} cum={e.CumulativeQuantity} " +
        $"last={e.LastQuantity}@{e.LastPrice} trade={e.TradeId} ts={e.Timestamp} seq={e.CommandSequence} id={e.ClOrdId} orig={e.OrigClOrdId}";

    private static string BookState(IMatchingEngine engine) => string.Join(
        '\n',
        from instrument in new[] { 0, 1 }
        from side in new[] { Side.Buy, Side.Sell }
        from order in engine.GetRestingOrders(instrument, side)
        select $"{instrument} {order}");
}
