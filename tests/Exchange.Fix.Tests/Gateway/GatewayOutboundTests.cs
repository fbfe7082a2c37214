using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Gateway;
using Exchange.Fix.Session;
using Xunit;

using Exchange.Tests.Shared;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>Engine events out through the gateway: ExecutionReports, OrderCancelRejects, stage tags, slow consumers.</summary>
public sealed class GatewayOutboundTests
{
    internal static EngineEvent Event(EventType type, long leaves, long cum, long lastQty = 0) => new()
    {
        Type = type,
        SourceCommand = CommandType.NewOrder,
        Side = Side.Buy,
        OrderType = OrderType.Limit,
        InstrumentId = 0,
        OwnerId = 0,
        OrderId = 42,
        Price = 1_434_200,
        OrderQuantity = 100,
        LeavesQuantity = leaves,
        CumulativeQuantity = cum,
        CumulativeNotional = cum * 1_434_200,
        LastPrice = lastQty > 0 ? 1_434_200 : 0,
        LastQuantity = lastQty,
        EventId = 900 + leaves,
        Timestamp = FakeClock.Start,
        ClOrdId = ClOrdId.From("ORD-1"),
    };

    [Fact]
    public void Accepted_and_trades_become_execution_reports_with_consecutive_numbers()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Gateway.SendEvent(Event(EventType.Accepted, 100, 0), default);
        h.Gateway.SendEvent(Event(EventType.Trade, 60, 40, 40), default);
        h.Gateway.SendEvent(Event(EventType.Trade, 0, 100, 60), default);

        List<Dictionary<int, string>> sent = h.TakeSent();
        Assert.Equal(3, sent.Count);
        Assert.Equal(["2", "3", "4"], sent.Select(m => m[34]));
        Assert.All(sent, m => Assert.Equal("8", m[35]));
        Assert.All(sent, m => Assert.Equal("42", m[37]));
        Assert.All(sent, m => Assert.Equal("ORD-1", m[11]));
        Assert.Equal(("0", "0", "0", "100", "1000"), (sent[0][150], sent[0][39], sent[0][14], sent[0][151], sent[0][17]));
        Assert.Equal(("F", "1", "40", "60", "143.42", "40", "143.42"), (sent[1][150], sent[1][39], sent[1][14], sent[1][151], sent[1][31], sent[1][32], sent[1][6]));
        Assert.Equal(("F", "2", "100", "0", "60"), (sent[2][150], sent[2][39], sent[2][14], sent[2][151], sent[2][32]));
        Assert.False(sent[0].ContainsKey(7004));
    }

    [Fact]
    public void Cancelled_and_replaced_carry_orig_clordid()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        EngineEvent cancelled = Event(EventType.Cancelled, 0, 0);
        cancelled.ClOrdId = ClOrdId.From("CXL-1");
        cancelled.OrigClOrdId = ClOrdId.From("ORD-1");
        h.Gateway.SendEvent(cancelled, default);

        Dictionary<int, string> er = Assert.Single(h.TakeSent());
        Assert.Equal(("4", "4", "CXL-1", "ORD-1"), (er[150], er[39], er[11], er[41]));
    }

    [Fact]
    public void Cancel_rejected_becomes_order_cancel_reject()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        EngineEvent rejected = Event(EventType.CancelRejected, 0, 0);
        rejected.SourceCommand = CommandType.Cancel;
        rejected.OrderId = 0;
        rejected.RejectReason = RejectReason.UnknownOrder;
        rejected.ClOrdId = ClOrdId.From("CXL-9");
        rejected.OrigClOrdId = ClOrdId.From("NOPE");
        h.Gateway.SendEvent(rejected, default);

        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal(("9", "NONE", "CXL-9", "NOPE", "1", "1"), (reject[35], reject[37], reject[11], reject[41], reject[434], reject[102]));
    }

    [Fact]
    public void Stage_timestamps_are_written_as_tags_7001_to_7004_when_enabled()
    {
        using var h = new GatewayHarness(new GatewayOptions { StageTimestamps = true });
        h.LogOn();
        h.Gateway.SendEvent(Event(EventType.Accepted, 100, 0), new StageTimes { Received = 11, Journaled = 22, Matched = 33, Sent = 44 });

        Dictionary<int, string> er = Assert.Single(h.TakeSent());
        Assert.Equal(("11", "22", "33", "44"), (er[7001], er[7002], er[7003], er[7004]));
    }

    [Fact]
    public void Event_for_a_disconnected_owner_is_stored_and_resent_after_logon()
    {
        using var h = new GatewayHarness();
        h.Gateway.SendEvent(Event(EventType.Accepted, 100, 0), default);
        Assert.Empty(h.TakeSent());

        h.Send("A", "98=0|108=30|");
        h.Send("2", "7=1|16=0|");
        List<Dictionary<int, string>> sent = h.TakeSent();
        Dictionary<int, string> resent = Assert.Single(sent, m => m[35] == "8");
        Assert.Equal(("1", "Y"), (resent[34], resent[43]));
    }

    [Fact]
    public void A_fill_while_the_client_was_away_follows_the_reply_to_its_reset_logon_and_nothing_it_had_is_sent_again()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Gateway.SendEvent(Event(EventType.Accepted, 100, 0), default);
        Assert.Equal(["2 100"], h.TakeSent().Select(m => $"{m[34]} {m[151]}"));
        h.Reconnect();

        h.Gateway.SendEvent(Event(EventType.Trade, 40, 60, lastQty: 60), default);
        h.NextClientSeq = 1;
        h.Send("A", "98=0|108=30|141=Y|");

        List<Dictionary<int, string>> sent = h.TakeSent();
        Assert.Equal(["A 1", "8 2"], sent.Select(m => $"{m[35]} {m[34]}"));
        Assert.Equal(("Y", "F", "940", "60"), (sent[0][141], sent[1][150], sent[1][17], sent[1][32]));
        Assert.False(sent[1].ContainsKey(43));
    }

    [Fact]
    public void Reports_an_in_memory_store_overwrote_before_the_client_came_back_are_logged_once()
    {
        using var h = new GatewayHarness(storeFactory: _ => new MemorySessionStore(capacityBytes: 4096));
        h.LogOn();
        h.Reconnect();
        for (int i = 0; i < 40; i++) // ~300 bytes each: the ring keeps about a dozen
        {
            EngineEvent report = Event(EventType.Accepted, 100, 0);
            report.EventId = 1000 + i;
            h.Gateway.SendEvent(report, default);
        }

        h.NextClientSeq = 1;
        h.Send("A", "98=0|108=30|141=Y|");
        int delivered = h.TakeSent().Count(m => m[35] == "8");
        h.Gateway.Poll();
        h.Gateway.Poll();

        string warning = Assert.Single(h.Log.Lines, l => l.Contains("no longer in its store", StringComparison.Ordinal));
        Assert.InRange(delivered, 1, 39);
        Assert.Contains($": {40 - delivered} message(s) queued", warning, StringComparison.Ordinal);
        Assert.Contains("MemoryStoreMegabytes", warning, StringComparison.Ordinal);
    }

    [Fact]
    public void Idle_preparation_readies_a_file_stores_next_page_once_and_skips_memory_stores()
    {
        using var directory = new TempStoreDirectory();
        using (var file = new GatewayHarness(storeFactory: c => new FileSessionStore(Path.Combine(directory.Path, c.TargetCompID + ".store"), FsyncPolicy.Never)))
        {
            file.LogOn();
            Assert.True(file.Gateway.PrepareWhileIdle());
            Assert.False(file.Gateway.PrepareWhileIdle());
            for (int i = 0; i < 60; i++) // ~8 KiB of reports (~140 bytes each): past what was prepared
            {
                EngineEvent report = Event(EventType.Accepted, 100, 0);
                report.EventId = 1000 + i;
                file.Gateway.SendEvent(report, default);
            }

            Assert.True(file.Gateway.PrepareWhileIdle());
            Assert.False(file.Gateway.PrepareWhileIdle());
        }

        using var memory = new GatewayHarness();
        memory.LogOn();
        Assert.False(memory.Gateway.PrepareWhileIdle());
    }

    [Fact]
    public void Idle_preparation_takes_sessions_in_turn_so_a_store_that_always_needs_it_starves_none()
    {
        using var directory = new TempStoreDirectory();
        var stores = new Dictionary<string, FileSessionStore>();

        // CLIENT1 syncs every record (FsyncPolicy.Always), and a sync undoes a preparation: it needs one after every report.
        using var h = new GatewayHarness(
            storeFactory: c => stores[c.TargetCompID] = new FileSessionStore(
                Path.Combine(directory.Path, c.TargetCompID + ".store"), c.TargetCompID == "CLIENT1" ? FsyncPolicy.Always : FsyncPolicy.Never),
            sessions: [new SessionConfig("VENUE", "CLIENT1"), new SessionConfig("VENUE", "CLIENT2")]);
        Assert.True(stores["CLIENT1"].NeedsPrepare);
        Assert.True(stores["CLIENT2"].NeedsPrepare);

        Assert.True(h.Gateway.PrepareWhileIdle());
        Assert.False(stores["CLIENT1"].NeedsPrepare);
        EngineEvent report = Event(EventType.Accepted, 100, 0);
        report.EventId = 1;
        h.Gateway.SendEvent(report, default); // CLIENT1 is away: the report is queued in its store, and synced
        Assert.True(stores["CLIENT1"].NeedsPrepare);

        Assert.True(h.Gateway.PrepareWhileIdle());
        Assert.False(stores["CLIENT2"].NeedsPrepare); // its turn came although CLIENT1 needed one again
        Assert.True(h.Gateway.PrepareWhileIdle());
        Assert.False(stores["CLIENT1"].NeedsPrepare);
        Assert.False(h.Gateway.PrepareWhileIdle());
    }

    [Fact]
    public void Slow_consumer_is_logged_out_and_closed()
    {
        using var h = new GatewayHarness(new GatewayOptions { MaxSendBacklogBytes = 1000 });
        h.LogOn();
        h.Connection.Backlog = 5000;
        h.Gateway.SendEvent(Event(EventType.Accepted, 100, 0), default);

        List<Dictionary<int, string>> sent = h.TakeSent();
        Assert.Equal(["8", "5"], sent.Select(m => m[35]));
        Assert.Equal("send backlog exceeded", sent[1][58]);
        Assert.Equal(1, h.Connection.CloseCount);
        Assert.Contains(h.Log.Lines, l => l.Contains("backlog", StringComparison.Ordinal));

        // Later events are still stored (numbered) but nothing more is written to the closing connection.
        h.Gateway.SendEvent(Event(EventType.Trade, 0, 100, 100), default);
        Assert.Empty(h.TakeSent());
        Assert.Equal(1, h.Connection.CloseCount);
    }

    [Fact]
    public void A_client_that_reads_nothing_and_asks_for_resends_is_cut_off_after_the_first_one()
    {
        // The answers to its own messages count against the backlog bound as reports do; before, every ResendRequest
        // was served in full into a backlog nobody read, without limit, as long as no report came for that client.
        using var h = new GatewayHarness(new GatewayOptions { MaxSendBacklogBytes = 1000 });
        h.LogOn();
        for (int i = 0; i < 50; i++)
        {
            h.Gateway.SendEvent(Event(EventType.Accepted, 100, 0), default);
        }

        h.TakeSent();
        h.Connection.Backlog = 1_000_000;
        int resent = 0;
        for (int i = 0; i < 3; i++)
        {
            h.Send("2", "7=1|16=0|");
            resent += h.TakeSent().Count(m => m[35] == "8");
        }

        Assert.Equal(50, resent);
        Assert.Equal(1, h.Connection.CloseCount);
        Assert.Contains(h.Log.Lines, l => l.Contains("backlog", StringComparison.Ordinal));
    }
}
