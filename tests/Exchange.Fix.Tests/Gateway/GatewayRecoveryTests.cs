using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Session;
using Xunit;

using Exchange.Tests.Shared;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// Start-up recovery of reports (<see cref="Exchange.Fix.Gateway.FixGateway.RecoverEvent"/>): a venue that stopped
/// after journalling a command but before its reports reached the session store replays the journal's events into a
/// new gateway over the same store; exactly the reports the store lacks become new messages, queued for the client: it
/// gets them by ResendRequest after a plain Logon, or right behind the reply to a Logon with ResetSeqNumFlag=Y. Each
/// "restart" is a new gateway over the same store file, as in the venue.
/// </summary>
public sealed class GatewayRecoveryTests : IDisposable
{
    private readonly TempStoreDirectory _directory = new();

    private string StorePath => Path.Combine(_directory.Path, "VENUE-CLIENT1.session");

    public void Dispose() => _directory.Dispose();

    /// <summary>
    /// What the journal replay produces for owner 0, in order: two orders accepted, the second filled in two trades by
    /// one taker command (events 3 and 4), a cancel of an unknown order refused (5), an order rejected (6).
    /// </summary>
    private static EngineEvent[] Journal() =>
    [
        Report(1, EventType.Accepted, "ORD-1"),
        Report(2, EventType.Accepted, "ORD-2"),
        Report(3, EventType.Trade, "ORD-2", lastQuantity: 40),
        Report(4, EventType.Trade, "ORD-2", lastQuantity: 60),
        CancelReject(5, "CXL-9", "NOPE"),
        Report(6, EventType.Rejected, "ORD-3"),
    ];

    [Fact]
    public void Reports_the_store_lacks_are_stored_once_as_new_messages_and_reach_the_client_by_resend()
    {
        EngineEvent[] journal = Journal();
        int clientSeq;
        using (GatewayHarness before = Restart(nextClientSeq: 1))
        {
            before.Gateway.CompleteRecovery(0); // the first start: an empty journal
            before.LogOn();
            for (int i = 0; i < 3; i++)
            {
                before.Gateway.SendEvent(journal[i], default);
            }

            Assert.Equal(["2", "3", "4"], before.TakeSent().Select(m => m[34]));
            clientSeq = before.NextClientSeq;

            // The venue dies here: events 4..6 are journalled, their reports never reached the store.
        }

        using (GatewayHarness after = Restart(clientSeq))
        {
            Assert.Equal([false, false, false, true, true, true], journal.Select(e => after.Gateway.RecoverEvent(e)));
            Assert.False(after.Gateway.RecoverEvent(Report(7, EventType.Accepted, "OTHER", owner: 5)));
            after.Gateway.CompleteRecovery(6);
            Assert.Contains(after.Log.Lines, l => l.Contains("3 reports in the journal had not reached the session store", StringComparison.Ordinal)
                && l.Contains("messages 5..7", StringComparison.Ordinal));

            after.LogOn();
            Assert.Equal(9, after.Gateway.GetSession(0).NextSenderSeqNum); // the Logon was 8: the client sees the gap

            after.Send("2", "7=5|16=0|");
            List<Dictionary<int, string>> resent = after.TakeSent();
            Assert.Equal(["5", "6", "7", "8"], resent.Select(m => m[34]));
            Assert.Equal(["8", "9", "8", "4"], resent.Select(m => m[35]));
            Assert.All(resent, m => Assert.Equal("Y", m[43]));
            Assert.Equal(("4", "F", "60", "ORD-2"), (resent[0][17], resent[0][150], resent[0][32], resent[0][11]));
            Assert.Equal(("CXL-9", "NOPE"), (resent[1][11], resent[1][41]));
            Assert.Equal(("6", "8", "ORD-3"), (resent[2][17], resent[2][150], resent[2][11]));
            Assert.Equal("9", resent[3][36]); // the Logon's own number, gap-filled
            clientSeq = after.NextClientSeq;
        }

        // Another restart over the same journal stores nothing: every report is in the store once.
        using GatewayHarness again = Restart(clientSeq);
        Assert.DoesNotContain(journal, e => again.Gateway.RecoverEvent(e));
        again.Gateway.CompleteRecovery(6);
        Assert.Equal(9, again.Gateway.GetSession(0).NextSenderSeqNum);
        Assert.DoesNotContain(again.Log.Lines, l => l.Contains("had not reached", StringComparison.Ordinal));
    }

    [Fact]
    public void Recovered_reports_follow_the_reply_to_a_reset_logon_once_in_order_as_new_messages()
    {
        EngineEvent[] journal = Journal();
        using (GatewayHarness before = Restart(nextClientSeq: 1))
        {
            before.Gateway.CompleteRecovery(0);
            before.LogOn();
            for (int i = 0; i < 3; i++)
            {
                before.Gateway.SendEvent(journal[i], default);
            }

            Assert.Equal(["2", "3", "4"], before.TakeSent().Select(m => m[34]));
        }

        using (GatewayHarness after = Restart(nextClientSeq: 1))
        {
            Assert.Equal([false, false, false, true, true, true], journal.Select(e => after.Gateway.RecoverEvent(e)));
            after.Gateway.CompleteRecovery(6);

            after.Send("A", "98=0|108=30|141=Y|");

            List<Dictionary<int, string>> sent = after.TakeSent();
            Assert.Equal(["A 1", "8 2", "9 3", "8 4"], sent.Select(m => $"{m[35]} {m[34]}"));
            Assert.Equal("Y", sent[0][141]);
            Assert.All(sent, m => Assert.False(m.ContainsKey(43)));
            Assert.Equal(("4", "F", "60", "ORD-2"), (sent[1][17], sent[1][150], sent[1][32], sent[1][11]));
            Assert.Equal(("CXL-9", "NOPE"), (sent[2][11], sent[2][41]));
            Assert.Equal(("6", "8", "ORD-3"), (sent[3][17], sent[3][150], sent[3][11]));
            Assert.Equal(6, after.Gateway.GetSession(0).LastEventId);
        }

        // The next start finds every report stored and delivered: nothing recovered, nothing behind the reset reply.
        using GatewayHarness again = Restart(nextClientSeq: 1);
        Assert.DoesNotContain(journal, e => again.Gateway.RecoverEvent(e));
        again.Gateway.CompleteRecovery(6);
        again.Send("A", "98=0|108=30|141=Y|");
        Assert.Equal(["A 1"], again.TakeSent().Select(m => $"{m[35]} {m[34]}"));
    }

    [Fact]
    public void A_store_that_cannot_tell_what_it_holds_gets_nothing_re_sent_and_counts_from_the_end_of_the_journal()
    {
        // A store written before stores kept the event id: three reports, no position.
        using (var legacy = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            legacy.StoreOutbound(1, "8"u8, 1, "17=1\u0001"u8);
            legacy.StoreOutbound(2, "8"u8, 2, "17=2\u0001"u8);
            legacy.StoreOutbound(3, "8"u8, 3, "17=3\u0001"u8);
        }

        EngineEvent[] journal = Journal();
        using (GatewayHarness first = Restart(nextClientSeq: 1))
        {
            Assert.DoesNotContain(journal[..4], e => first.Gateway.RecoverEvent(e));
            first.Gateway.CompleteRecovery(4);
            Assert.Equal(4, first.Gateway.GetSession(0).LastEventId);
            Assert.Equal(4, first.Gateway.GetSession(0).NextSenderSeqNum);
            Assert.Contains(first.Log.Lines, l => l.Contains("up to 4 are not re-sent", StringComparison.Ordinal));
        }

        // From then on the store counts: a crash after event 6 was journalled recovers 5 and 6.
        using GatewayHarness second = Restart(nextClientSeq: 1);
        Assert.Equal([false, false, false, false, true, true], journal.Select(e => second.Gateway.RecoverEvent(e)));
    }

    [Fact]
    public void A_store_ahead_of_the_journal_keeps_its_position_and_asks_for_new_events_to_be_numbered_past_it()
    {
        using (GatewayHarness before = Restart(nextClientSeq: 1))
        {
            before.Gateway.CompleteRecovery(0);
            before.Gateway.SendEvent(Report(10, EventType.Accepted, "ORD-10"), default);
        }

        // The journal was replaced (or lost its tail): it ends at event 4, but the store sent a report of event 10.
        EngineEvent[] journal = Journal();
        using (GatewayHarness after = Restart(nextClientSeq: 1))
        {
            Assert.DoesNotContain(journal[..4], e => after.Gateway.RecoverEvent(e));
            Assert.Equal(10, after.Gateway.CompleteRecovery(4));
            Assert.Equal(10, after.Gateway.GetSession(0).LastEventId);
            Assert.Contains(after.Log.Lines, l => l.StartsWith("warn:", StringComparison.Ordinal) && l.Contains("journal ends at event 4", StringComparison.Ordinal));
        }

        // The host numbers new events above 10 (ReserveEventIds), so the next one is new to the store.
        using GatewayHarness again = Restart(nextClientSeq: 1);
        Assert.False(again.Gateway.RecoverEvent(journal[4]));
        Assert.True(again.Gateway.RecoverEvent(Report(11, EventType.Accepted, "ORD-11")));
    }

    [Fact]
    public void The_gateways_own_rejects_and_a_sequence_reset_leave_the_position_where_the_last_engine_report_put_it()
    {
        EngineEvent[] journal = Journal();
        using (GatewayHarness before = Restart(nextClientSeq: 1))
        {
            before.Gateway.CompleteRecovery(0);
            before.LogOn();
            before.Gateway.SendEvent(journal[0], default);
            before.Send("D", GatewayHarness.NewOrder("BAD-1", symbol: "NOSUCH"));
            Assert.Equal(["8", "8"], before.TakeSent().Select(m => m[35])); // the gateway's reject has its own ExecID
            Assert.Equal(1, before.Gateway.GetSession(0).LastEventId);

            // Only the reply follows the reset: the report and the reject were written live, so nothing was queued.
            before.Feed(before.Message("A", "98=0|108=30|141=Y|", seq: 1));
            Assert.Equal("A", Assert.Single(before.TakeSent())[35]);
            Assert.Equal(1, before.Gateway.GetSession(0).LastEventId);
        }

        using GatewayHarness after = Restart(nextClientSeq: 2);
        Assert.Equal([false, true, true, true, true, true], journal.Select(e => after.Gateway.RecoverEvent(e)));
    }

    [Fact]
    public void An_order_status_report_the_store_lacks_is_recovered_like_any_other_report()
    {
        // A possible resend of a live order was journalled and answered with its status, which never reached the store.
        EngineEvent accepted = Report(1, EventType.Accepted, "ORD-1");
        EngineEvent status = Report(2, EventType.OrderStatus, "ORD-1") with { OrderId = accepted.OrderId };
        int clientSeq;
        using (GatewayHarness before = Restart(nextClientSeq: 1))
        {
            before.Gateway.CompleteRecovery(0);
            before.LogOn();
            before.Gateway.SendEvent(accepted, default);
            Assert.Equal("2", Assert.Single(before.TakeSent())[34]);
            clientSeq = before.NextClientSeq;
        }

        using GatewayHarness after = Restart(clientSeq);
        Assert.Equal([false, true], new[] { accepted, status }.Select(e => after.Gateway.RecoverEvent(e)));
        after.Gateway.CompleteRecovery(2);
        Assert.Equal(2, after.Gateway.GetSession(0).LastEventId);
        after.LogOn();
        after.Send("2", "7=3|16=3|");

        Dictionary<int, string> resent = Assert.Single(after.TakeSent());
        Assert.Equal(("3", "8", "Y"), (resent[34], resent[35], resent[43]));
        Assert.Equal(("I", "0", "ORD-1", "41", "100"), (resent[150], resent[39], resent[11], resent[37], resent[151]));
    }

    private GatewayHarness Restart(int nextClientSeq) =>
        new(storeFactory: _ => new FileSessionStore(StorePath, FsyncPolicy.Never)) { NextClientSeq = nextClientSeq };

    private static EngineEvent Report(long eventId, EventType type, string clOrdId, long lastQuantity = 0, int owner = 0) => new()
    {
        Type = type,
        SourceCommand = CommandType.NewOrder,
        Side = Side.Buy,
        OrderType = OrderType.Limit,
        InstrumentId = 0,
        OwnerId = owner,
        OrderId = type == EventType.Rejected ? 0 : 40 + eventId,
        Price = 1_434_200,
        OrderQuantity = 100,
        LeavesQuantity = type == EventType.Rejected ? 0 : 100 - lastQuantity,
        CumulativeQuantity = lastQuantity,
        CumulativeNotional = lastQuantity * 1_434_200,
        LastPrice = lastQuantity > 0 ? 1_434_200 : 0,
        LastQuantity = lastQuantity,
        RejectReason = type == EventType.Rejected ? RejectReason.PriceOffTick : RejectReason.None,
        EventId = eventId,
        Timestamp = FakeClock.Start,
        ClOrdId = ClOrdId.From(clOrdId),
    };

    private static EngineEvent CancelReject(long eventId, string clOrdId, string origClOrdId) => new()
    {
        Type = EventType.CancelRejected,
        SourceCommand = CommandType.Cancel,
        Side = Side.Buy,
        RejectReason = RejectReason.UnknownOrder,
        EventId = eventId,
        Timestamp = FakeClock.Start,
        ClOrdId = ClOrdId.From(clOrdId),
        OrigClOrdId = ClOrdId.From(origClOrdId),
    };
}
