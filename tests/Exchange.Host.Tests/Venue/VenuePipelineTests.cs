using Exchange.Core.Commands;
using Exchange.Core.Events;
using Exchange.Host.Journal;
using Exchange.Host.Venue;
using Microsoft.Extensions.Logging;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// The venue's rings, journal and sender wired by <see cref="VenueService"/>, driven through the command publisher it
/// hands the gateway, with a fake gateway and a fake engine (so these tests cover the plumbing, not matching).
/// </summary>
public sealed class VenuePipelineTests
{
    [Fact]
    public async Task Commands_are_journalled_in_order_and_reported_only_once_the_journal_holds_them()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        var engine = new FakeEngine();
        string journalPath = directory.JournalPath;
        var notYetJournalled = new List<long>();

        // Runs on the sender thread before each report: the record for the command must already be in the file.
        gateway.OnSend = evt =>
        {
            using JournalReader reader = JournalReader.OpenWhileWriting(journalPath);
            while (reader.TryRead(out _, out _))
            {
            }

            if (reader.LastSequence < evt.CommandSequence)
            {
                notYetJournalled.Add(evt.CommandSequence);
            }
        };

        const int Count = 200;
        await using (VenueService venue = CreateVenue(directory, gateway, engine, out _))
        {
            await venue.StartAsync(CancellationToken.None);
            for (int i = 0; i < Count; i++)
            {
                Command command = VenueTestOptions.NewOrder(i, owner: i % 2);
                Assert.True(gateway.Commands!.TryPublish(in command));
            }

            List<(EngineEvent Event, Fix.Gateway.StageTimes Times)> events = gateway.WaitForEvents(Count);
            for (int i = 0; i < Count; i++)
            {
                Assert.Equal(i, events[i].Event.CommandSequence);
                Assert.Equal(EventType.Accepted, events[i].Event.Type);
                Assert.Equal("O-" + i, events[i].Event.ClOrdId.ToString());
                Fix.Gateway.StageTimes times = events[i].Times;
                // Journalling and matching run side by side here (Threaded), each between receipt and sending.
                Assert.True(times.Received != 0 && times.Received <= times.Matched && times.Matched <= times.Sent);
                Assert.True(times.Received <= times.Journaled && times.Journaled <= times.Sent);
            }

            await venue.StopAsync(CancellationToken.None);
            Assert.Equal(Count, venue.Counters.Orders);
        }

        // Threaded: only the sender asks the gateway to prepare its stores, after each batch of reports.
        Assert.InRange(gateway.PrepareCalls, 1, Count);
        Assert.Empty(notYetJournalled);
        Assert.Equal(1, gateway.LogoutAllCalls);
        Assert.Equal(1, gateway.DisposeCalls);
        List<(long Sequence, Command Command)> journal = Journal.JournalTestData.ReadAll(journalPath, out JournalReader finished);
        Assert.Equal(JournalReadStatus.Clean, finished.Status);
        Assert.Equal(Count, journal.Count);
        Assert.Equal(Count, engine.Processed.Count);
        for (int i = 0; i < Count; i++)
        {
            Assert.Equal(i, journal[i].Sequence);
            Assert.Equal(i, journal[i].Command.Sequence);
            Assert.Equal("O-" + i, journal[i].Command.ClOrdId.ToString());
            Assert.Equal(i % 2, journal[i].Command.OwnerId);
            Assert.Equal(journal[i].Command.ClOrdId, engine.Processed[i].ClOrdId);
        }
    }

    [Fact]
    public async Task A_restart_replays_the_journal_into_the_engine_before_accepting_and_continues_the_numbering()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        await using (VenueService venue = CreateVenue(directory, gateway, new FakeEngine(), out _))
        {
            await venue.StartAsync(CancellationToken.None);
            for (int i = 0; i < 30; i++)
            {
                Command command = VenueTestOptions.NewOrder(i);
                gateway.Commands!.TryPublish(in command);
            }

            gateway.WaitForEvents(30);
            await venue.StopAsync(CancellationToken.None);
        }

        var second = new FakeEngine();
        var secondGateway = new FakeGateway();
        await using (VenueService venue = CreateVenue(directory, secondGateway, second, out _))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(30, venue.RecoveredCommands);

            // Replayed before the listener opened: the engine already holds all 30 orders.
            Assert.Equal(30, second.Processed.Count);
            Assert.Equal(30, second.RestingOrderCount);

            // Every replayed event went to the gateway, in order, for the sessions to store what they lack.
            Assert.Equal(Enumerable.Range(1, 30).Select(i => (long)i), secondGateway.Recovered.Select(e => e.EventId));
            Assert.Equal(30, secondGateway.RecoveryCompletedAt);

            // A duplicate of a recovered ClOrdID is rejected (state came back), and numbering continues at 30.
            Command duplicate = VenueTestOptions.NewOrder(7);
            Command fresh = VenueTestOptions.NewOrder(30);
            secondGateway.Commands!.TryPublish(in duplicate);
            secondGateway.Commands!.TryPublish(in fresh);
            List<(EngineEvent Event, Fix.Gateway.StageTimes Times)> events = secondGateway.WaitForEvents(2);
            Assert.Equal(EventType.Rejected, events[0].Event.Type);
            Assert.Equal(30, events[0].Event.CommandSequence);
            Assert.Equal(EventType.Accepted, events[1].Event.Type);
            Assert.Equal(31, events[1].Event.CommandSequence);
            await venue.StopAsync(CancellationToken.None);
        }

        List<(long Sequence, Command Command)> journal = Journal.JournalTestData.ReadAll(directory.JournalPath, out _);
        Assert.Equal(32, journal.Count);
        Assert.Equal(Enumerable.Range(0, 32).Select(i => (long)i), journal.Select(r => r.Sequence));
    }

    [Fact]
    public async Task A_torn_last_record_is_dropped_with_a_log_line_and_never_replayed()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        await using (VenueService venue = CreateVenue(directory, gateway, new FakeEngine(), out _))
        {
            await venue.StartAsync(CancellationToken.None);
            for (int i = 0; i < 10; i++)
            {
                Command command = VenueTestOptions.NewOrder(i);
                gateway.Commands!.TryPublish(in command);
            }

            gateway.WaitForEvents(10);
            await venue.StopAsync(CancellationToken.None);
        }

        // Half of an 11th record, as a crash in the middle of a write leaves it.
        long goodLength = new FileInfo(directory.JournalPath).Length;
        var record = new byte[JournalFormat.RecordSize];
        Command torn = VenueTestOptions.NewOrder(10);
        torn.Sequence = 10;
        JournalFormat.WriteRecord(record, 10, in torn);
        await using (var file = new FileStream(directory.JournalPath, FileMode.Append))
        {
            file.Write(record, 0, record.Length / 2);
        }

        var engine = new FakeEngine();
        var restarted = new FakeGateway();
        await using (VenueService venue = CreateVenue(directory, restarted, engine, out CapturingLoggerProvider logs))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(JournalReadStatus.TornRecord, venue.JournalScan.Status);
            Assert.Equal(10, venue.RecoveredCommands);
            Assert.Equal(10, engine.Processed.Count);
            Assert.True(logs.Contains("dropped torn record"), string.Join(Environment.NewLine, logs.Lines));
            Assert.True(logs.Contains("Pre-faulted"), string.Join(Environment.NewLine, logs.Lines)); // Pipeline:PreFault is on by default

            // The next command takes the dropped record's number: the journal stays gap-free.
            Command next = VenueTestOptions.NewOrder(99);
            restarted.Commands!.TryPublish(in next);
            Assert.Equal(10, restarted.WaitForEvents(1)[0].Event.CommandSequence);
            await venue.StopAsync(CancellationToken.None);
        }

        Assert.Equal(goodLength + JournalFormat.RecordSize, new FileInfo(directory.JournalPath).Length);
    }

    /// <summary>
    /// Makes the sender stuck in its first report, as behind a store's fsync that takes longer than the stop allows:
    /// <paramref name="sending"/> is set once it is, and it goes on when <paramref name="release"/> is (or after 60 s).
    /// </summary>
    private static void StickSender(FakeGateway gateway, ManualResetEventSlim sending, ManualResetEventSlim release) =>
        gateway.OnSend = _ =>
        {
            sending.Set();
            release.Wait(TimeSpan.FromSeconds(60));
        };

    [Fact]
    public async Task A_sender_that_does_not_stop_in_time_keeps_the_session_stores_open_and_the_journal_still_closes()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        using var sending = new ManualResetEventSlim(false);
        using var release = new ManualResetEventSlim(false);
        StickSender(gateway, sending, release);

        await using (VenueService venue = CreateVenue(directory, gateway, new FakeEngine(), out CapturingLoggerProvider logs, drainTimeout: TimeSpan.FromMilliseconds(200)))
        {
            await venue.StartAsync(CancellationToken.None);
            Command command = VenueTestOptions.NewOrder(1);
            Assert.True(gateway.Commands!.TryPublish(in command));
            Assert.True(sending.Wait(TimeSpan.FromSeconds(20)));

            await venue.StopAsync(CancellationToken.None);

            // Closing the stores now would unmap them under the sender's next write.
            Assert.Equal(0, gateway.DisposeCalls);
            Assert.True(logs.Contains("Left open until the process exits: the session stores, because the sender has not stopped"));
            Assert.False(logs.Contains("Left open until the process exits: the journal"));
            release.Set();
        }

        Assert.Equal(0, gateway.DisposeCalls);

        // The journaller had stopped, so the journal was closed as usual: trimmed to its one record.
        List<(long Sequence, Command Command)> journal = Journal.JournalTestData.ReadAll(directory.JournalPath, out JournalReader finished);
        Assert.Equal(JournalReadStatus.Clean, finished.Status);
        Assert.Single(journal);
    }

    [Fact]
    public async Task A_stop_with_a_stuck_sender_ends_within_its_budget_though_each_step_may_wait_longer()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        using var sending = new ManualResetEventSlim(false);
        using var release = new ManualResetEventSlim(false);
        StickSender(gateway, sending, release);

        // The default DrainTimeout (10 s): the drain before logout, the outbound drain and its halt would take 30 s
        // with the sender stuck, past systemd's TimeoutStopSec; the budget cuts them to 1 s in all.
        await using (VenueService venue = CreateVenue(directory, gateway, new FakeEngine(), out CapturingLoggerProvider logs))
        {
            venue.StopBudget = TimeSpan.FromSeconds(1);
            await venue.StartAsync(CancellationToken.None);
            Command command = VenueTestOptions.NewOrder(1);
            Assert.True(gateway.Commands!.TryPublish(in command));
            Assert.True(sending.Wait(TimeSpan.FromSeconds(20)));

            var stopping = System.Diagnostics.Stopwatch.StartNew();
            await venue.StopAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60));

            // 1 s, plus the floor of the waits that found the sender still stuck; over 30 s without the budget.
            Assert.True(stopping.Elapsed < TimeSpan.FromSeconds(6), $"the stop took {stopping.Elapsed}");
            Assert.True(logs.Contains("The stop's waits ran into its limit of 1 s in all"), string.Join(Environment.NewLine, logs.Lines));
            Assert.True(logs.Contains("Left open until the process exits: the session stores, because the sender has not stopped"));
            Assert.Equal(0, gateway.DisposeCalls);
            release.Set();
        }
    }

    [Fact]
    public async Task A_healthy_stop_with_its_budget_already_spent_finishes_every_step_and_reports_nothing_cut()
    {
        // Every wait is cut to the floor from the start, but no thread is stuck: each ends within it, the journal and
        // the session stores are closed, and the log does not claim a wait was cut short.
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        await using (VenueService venue = CreateVenue(directory, gateway, new FakeEngine(), out CapturingLoggerProvider logs))
        {
            venue.StopBudget = TimeSpan.FromMilliseconds(1);
            await venue.StartAsync(CancellationToken.None);
            Command command = VenueTestOptions.NewOrder(1);
            Assert.True(gateway.Commands!.TryPublish(in command));
            gateway.WaitForEvents(1);

            await venue.StopAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60));

            Assert.Equal(1, gateway.DisposeCalls);
            Assert.False(logs.Contains("ran into its limit"), string.Join(Environment.NewLine, logs.Lines));
            Assert.False(logs.Contains("Left open"), string.Join(Environment.NewLine, logs.Lines));
        }

        Assert.Single(Journal.JournalTestData.ReadAll(directory.JournalPath, out _));
    }

    [Fact]
    public async Task A_stop_whose_budget_a_stuck_matcher_spent_still_closes_what_the_threads_that_did_stop_used()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        using var matching = new ManualResetEventSlim(false);
        using var release = new ManualResetEventSlim(false);
        var engine = new FakeEngine
        {
            AfterEach = _ =>
            {
                // The matcher is stuck in its first command; every other thread is free to stop.
                matching.Set();
                release.Wait(TimeSpan.FromSeconds(60));
            },
        };

        await using (VenueService venue = CreateVenue(directory, gateway, engine, out CapturingLoggerProvider logs))
        {
            venue.StopBudget = TimeSpan.FromSeconds(1);
            await venue.StartAsync(CancellationToken.None);
            Command command = VenueTestOptions.NewOrder(1);
            Assert.True(gateway.Commands!.TryPublish(in command));
            Assert.True(matching.Wait(TimeSpan.FromSeconds(20)));

            await venue.StopAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60));

            // The budget was spent on the stuck matcher, yet the sender and the market-data thread stopped once told
            // to: the session stores they wrote are closed, not blamed on them.
            Assert.True(logs.Contains("The stop's waits ran into its limit of 1 s in all"), string.Join(Environment.NewLine, logs.Lines));
            Assert.Equal(1, gateway.DisposeCalls);
            Assert.False(logs.Contains("Left open until the process exits: the session stores"), string.Join(Environment.NewLine, logs.Lines));
            release.Set();
        }
    }

    [Fact]
    public async Task A_session_timer_poll_that_does_not_end_in_time_keeps_the_session_stores_open()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        using var polling = new ManualResetEventSlim(false);
        using var release = new ManualResetEventSlim(false);
        int polls = 0;
        gateway.OnPoll = () =>
        {
            // The first poll is stuck, as behind a session's lock held by a slow store write; later ticks pass (each
            // blocked one would hold a pool thread).
            if (Interlocked.Increment(ref polls) == 1)
            {
                polling.Set();
                release.Wait(TimeSpan.FromSeconds(30));
            }
        };

        await using (VenueService venue = CreateVenue(directory, gateway, new FakeEngine(), out CapturingLoggerProvider logs, drainTimeout: TimeSpan.FromMilliseconds(200)))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.True(polling.Wait(TimeSpan.FromSeconds(20)));

            await venue.StopAsync(CancellationToken.None);

            Assert.Equal(0, gateway.DisposeCalls);
            Assert.True(logs.Contains("Left open until the process exits: the session stores, because the session timer's poll has not stopped"));
            release.Set();
        }

        Assert.Equal(0, gateway.DisposeCalls);
    }

    [Fact]
    public async Task An_inline_venue_closes_the_gateway_though_a_client_was_connected_when_it_stopped()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        var endpoint = new VenueEndpoint();
        Exchange.Host.Configuration.VenueOptions options = VenueTestOptions.Create(directory.Path);
        options.Pipeline.Mode = "Inline";
        options.Pipeline.MatcherWait = "Sleeping";
        CapturingLoggerProvider logs;
        await using (VenueService venue = CreateVenue(directory, gateway, new FakeEngine(), out logs, options, endpoint: endpoint))
        {
            await venue.StartAsync(CancellationToken.None);
            System.Net.IPEndPoint bound = await endpoint.Bound.WaitAsync(TimeSpan.FromSeconds(10));
            using var client = new System.Net.Sockets.TcpClient();
            await client.ConnectAsync(bound);
            Assert.True(SpinWait.SpinUntil(() => gateway.AttachCalls == 1, TimeSpan.FromSeconds(20)));

            // Disposed without a stop (as the host does after a stop that failed): the polling thread closes the
            // connection as it ends, and the connection's bookkeeping catches up only later, on the thread pool. The
            // polling thread served the connection, so once it has ended nothing else uses the gateway.
        }

        Assert.Equal(1, gateway.DisposeCalls);
        Assert.False(logs.Contains("Left open"));
    }

    [Fact]
    public async Task Session_stores_ahead_of_the_journal_make_new_events_numbered_past_them_also_after_a_restart()
    {
        using var directory = new TempVenueDirectory();

        // The stores sent reports of events up to 50 that the journal lost: new ExecIDs must not repeat them.
        var gateway = new FakeGateway { StoredThrough = 50 };
        await using (VenueService venue = CreateVenue(directory, gateway, engine: null, out CapturingLoggerProvider logs))
        {
            await venue.StartAsync(CancellationToken.None);
            Command command = VenueTestOptions.NewOrder(1);
            Assert.True(gateway.Commands!.TryPublish(in command));
            Assert.Equal(51, gateway.WaitForEvents(1)[0].Event.EventId);
            Assert.True(logs.Contains("new events are numbered above it"));
            await venue.StopAsync(CancellationToken.None);
        }

        // The reservation was journalled, so the replay numbers the order's report as the first run did.
        var restarted = new FakeGateway();
        await using (VenueService venue = CreateVenue(directory, restarted, engine: null, out _))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(51, Assert.Single(restarted.Recovered, e => e.Type == EventType.Accepted).EventId);
            Assert.Equal(51, restarted.RecoveryCompletedAt);
            await venue.StopAsync(CancellationToken.None);
        }
    }

    [Fact]
    public async Task A_journal_that_lost_its_tail_gives_no_new_order_an_order_id_a_client_saw()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        EngineEvent seen;
        await using (VenueService venue = CreateVenue(directory, gateway, engine: null, out _))
        {
            await venue.StartAsync(CancellationToken.None);
            Command first = VenueTestOptions.NewOrder(1);
            Assert.True(gateway.Commands!.TryPublish(in first));
            gateway.WaitForEvents(1);
            Command second = VenueTestOptions.NewOrder(2);
            Assert.True(gateway.Commands!.TryPublish(in second));
            seen = gateway.WaitForEvents(2)[1].Event; // stored and sent: the client knows this OrderID
            Assert.Equal(EventType.Accepted, seen.Type);
            await venue.StopAsync(CancellationToken.None);
        }

        // A power loss under Fsync Periodic or Never: the journal lost its last record, the session store kept the report.
        using (var file = new FileStream(directory.JournalPath, FileMode.Open, FileAccess.ReadWrite))
        {
            file.SetLength(file.Length - JournalFormat.RecordSize);
        }

        var restarted = new FakeGateway { StoredThrough = seen.EventId };
        await using (VenueService venue = CreateVenue(directory, restarted, engine: null, out _))
        {
            await venue.StartAsync(CancellationToken.None);
            Command third = VenueTestOptions.NewOrder(3);
            Assert.True(restarted.Commands!.TryPublish(in third));
            EngineEvent fresh = restarted.WaitForEvents(1)[0].Event;
            Assert.Equal(EventType.Accepted, fresh.Type);
            Assert.True(fresh.EventId > seen.EventId);
            Assert.NotEqual(seen.OrderId, fresh.OrderId);
            await venue.StopAsync(CancellationToken.None);
        }
    }

    [Fact]
    public async Task A_reservation_counts_at_the_next_start_and_carries_the_journals_latest_time()
    {
        using var directory = new TempVenueDirectory();
        var before = new FakeGateway();
        await using (VenueService venue = CreateVenue(directory, before, engine: null, out _))
        {
            await venue.StartAsync(CancellationToken.None);
            Command order = VenueTestOptions.NewOrder(7);
            Assert.True(before.Commands!.TryPublish(in order));
            before.WaitForEvents(1);
            await venue.StopAsync(CancellationToken.None);
        }

        // The stores hold reports up to event 50; the venue reserves the ids, then stops before any event takes one.
        long later = VenueTestOptions.TestTime + (TimeSpan.FromMinutes(10).Ticks * 100); // the same trading day
        await using (VenueService venue = CreateVenue(directory, new FakeGateway { StoredThrough = 50 }, engine: null, out _, clock: new Exchange.Tests.Shared.FakeClock(later)))
        {
            await venue.StartAsync(CancellationToken.None);
            await venue.StopAsync(CancellationToken.None);
        }

        // The next start counts the reserved ids as used: nothing to reserve again, nothing to warn about.
        var after = new FakeGateway { StoredThrough = 50 };
        await using (VenueService venue = CreateVenue(directory, after, engine: null, out CapturingLoggerProvider logs))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(50, after.RecoveryCompletedAt);
            Assert.False(logs.Contains("new events are numbered above it"));
            await venue.StopAsync(CancellationToken.None);
        }

        List<(long Sequence, Command Command)> journal = Journal.JournalTestData.ReadAll(directory.JournalPath, out _);
        Command reservation = Assert.Single(journal, r => r.Command.Type == CommandType.ReserveEventAndOrderIds).Command;
        Assert.Equal(50, reservation.Quantity);

        // Stamped with the journal's latest time, not the clock's, so it never tells a restart the day was rolled.
        Assert.Equal(journal.Where(r => r.Command.Type != CommandType.ReserveEventAndOrderIds).Max(r => r.Command.Timestamp), reservation.Timestamp);
    }

    [Fact]
    public async Task After_stop_the_publisher_refuses_commands()
    {
        using var directory = new TempVenueDirectory();
        var gateway = new FakeGateway();
        await using VenueService venue = CreateVenue(directory, gateway, new FakeEngine(), out _);
        await venue.StartAsync(CancellationToken.None);
        Command command = VenueTestOptions.NewOrder(1);
        Assert.True(gateway.Commands!.TryPublish(in command));
        gateway.WaitForEvents(1);
        await venue.StopAsync(CancellationToken.None);
        Assert.False(gateway.Commands!.TryPublish(in command));
    }

    /// <summary>
    /// A venue over <paramref name="gateway"/>; with <paramref name="engine"/> null, the real engine from the plugins.
    /// Its clock stands still on the day the test commands are stamped with (<see cref="VenueTestOptions.TestDay"/>)
    /// unless <paramref name="clock"/> says otherwise, so no test crosses a trading day by accident.
    /// </summary>
    [Fact]
    public async Task Threaded_with_periodic_fsync_the_journaller_syncs_the_last_batch_before_a_pause_without_a_later_one()
    {
        using var directory = new TempVenueDirectory();
        Exchange.Host.Configuration.VenueOptions options = VenueTestOptions.Create(directory.Path, fsync: "Periodic");
        options.Journal.FsyncIntervalMilliseconds = 200;
        var gateway = new FakeGateway();
        await using VenueService venue = CreateVenue(directory, gateway, new FakeEngine(), out _, options);
        await venue.StartAsync(CancellationToken.None);
        JournalWriter journal = venue.Journal!;

        // The first order's commit may sync it (the interval since the open has passed) or leave it to the idle sync.
        Command first = VenueTestOptions.NewOrder(0);
        Assert.True(gateway.Commands!.TryPublish(in first));
        gateway.WaitForEvents(1);
        Assert.True(SpinWait.SpinUntil(() => journal.SyncedSequence.Value == 0, TimeSpan.FromSeconds(10)), "the first order was never synced");

        // The second comes well within the interval of that sync, so its commit does not sync; no batch follows it.
        Command second = VenueTestOptions.NewOrder(1);
        Assert.True(gateway.Commands!.TryPublish(in second));
        gateway.WaitForEvents(2);
        Assert.True(
            SpinWait.SpinUntil(() => journal.SyncedSequence.Value == 1, TimeSpan.FromSeconds(10)),
            $"the last batch before the pause was not synced (synced through {journal.SyncedSequence.Value})");
        await venue.StopAsync(CancellationToken.None);
    }

    internal static VenueService CreateVenue(
        TempVenueDirectory directory,
        FakeGateway gateway,
        Core.Engine.IMatchingEngine? engine,
        out CapturingLoggerProvider logs,
        Exchange.Host.Configuration.VenueOptions? options = null,
        Fix.Session.IClock? clock = null,
        TimeSpan? drainTimeout = null,
        VenueEndpoint? endpoint = null)
    {
        logs = new CapturingLoggerProvider();
        CapturingLoggerProvider provider = logs;
        ILoggerFactory loggers = LoggerFactory.Create(builder => builder.AddProvider(provider));
        var venue = new VenueService(
            options ?? VenueTestOptions.Create(directory.Path),
            gateway,
            endpoint ?? new VenueEndpoint(),
            loggers,
            engineFactory: engine is null ? null : instruments =>
            {
                var store = new FakeMarketDataStore();
                store.Initialize(instruments.Count);
                return new VenueEngine(engine, store, "fake engine");
            },
            clock: clock ?? new Exchange.Tests.Shared.FakeClock(VenueTestOptions.TestTime));
        if (drainTimeout is { } timeout)
        {
            venue.DrainTimeout = timeout;
        }

        return venue;
    }
}
