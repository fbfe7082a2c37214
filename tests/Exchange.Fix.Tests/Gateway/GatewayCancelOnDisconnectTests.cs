using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Gateway;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// Cancel on disconnect (<see cref="SessionConfig.CancelOnDisconnect"/>): however a logon ends, the gateway publishes
/// one <see cref="CommandType.CancelOnDisconnect"/> for the session once its connection is done, and refuses a new
/// Logon until then, so no order of the next logon can be sequenced before that cancel.
/// </summary>
public class GatewayCancelOnDisconnectTests
{
    private static GatewayHarness Harness(bool cancelOnDisconnect = true) =>
        new(sessions: [new SessionConfig("VENUE", "CLIENT1") { CancelOnDisconnect = cancelOnDisconnect }]);

    [Fact]
    public void A_dropped_connection_publishes_one_cancel_of_every_order_of_the_session()
    {
        using GatewayHarness h = Harness();
        h.LogOn();
        h.Send("D", GatewayHarness.NewOrder());

        h.Reconnect();

        Assert.Equal([CommandType.NewOrder, CommandType.CancelOnDisconnect], h.Publisher.Commands.Select(c => c.Type));
        Command cancel = h.Publisher.Commands[^1];
        Assert.Equal((0, -1, Side.None, h.Clock.UtcNowNanos), (cancel.OwnerId, cancel.InstrumentId, cancel.Side, cancel.Timestamp));
        Assert.Contains(h.Log.Lines, line => line.Contains("its resting orders are being canceled (CancelOnDisconnect)", StringComparison.Ordinal));
    }

    [Fact]
    public void A_logon_while_the_previous_one_is_ending_is_closed_without_reply_and_the_next_one_comes_after_the_cancel()
    {
        using GatewayHarness h = Harness();
        h.LogOn();

        // The client logs out: the session answers and is free at once, but its connection has not ended yet.
        h.Send("5", "");
        Assert.Equal("5", Assert.Single(h.TakeSent())[35]);
        Assert.Empty(h.Publisher.Commands);
        var early = new FakeConnection();
        ConnectionHandler earlyHandler = h.Gateway.CreateHandler(early);
        earlyHandler.Process(h.Message("A", "98=0|108=30|"));

        Assert.Equal(1, early.CloseCount);
        Assert.Empty(GatewayHarness.Parse(early.Recorded.Flushed));
        Assert.Null(earlyHandler.Bound);
        Assert.False(h.Gateway.IsLoggedOn(0));

        h.Reconnect(); // the first connection ends: the cancel goes out, and logons are taken again
        h.NextClientSeq = 1;
        h.Feed(h.Message("A", "98=0|108=30|141=Y|"));
        Assert.True(h.Gateway.IsLoggedOn(0));
        h.Send("D", GatewayHarness.NewOrder("ORD-2"));

        Assert.Equal([CommandType.CancelOnDisconnect, CommandType.NewOrder], h.Publisher.Commands.Select(c => c.Type));
    }

    [Fact]
    public void A_logon_ended_by_the_venue_cancels_too()
    {
        using GatewayHarness h = Harness();
        h.LogOn();
        h.Feed(h.Message("0", "", seq: 1)); // MsgSeqNum too low: Logout and disconnect

        Assert.False(h.Gateway.IsLoggedOn(0));
        h.Reconnect();

        Assert.Equal(CommandType.CancelOnDisconnect, Assert.Single(h.Publisher.Commands).Type);
    }

    [Fact]
    public void A_refused_logon_or_a_session_without_the_option_cancels_nothing()
    {
        using (GatewayHarness refused = Harness())
        {
            refused.Send("A", "98=0|108=-5|"); // a negative HeartBtInt: Logout, never logged on
            Assert.False(refused.Gateway.IsLoggedOn(0));
            refused.Reconnect();
            Assert.Empty(refused.Publisher.Commands);
        }

        using GatewayHarness plain = Harness(cancelOnDisconnect: false);
        plain.LogOn();
        plain.Send("D", GatewayHarness.NewOrder());
        plain.Reconnect();

        Assert.Equal(CommandType.NewOrder, Assert.Single(plain.Publisher.Commands).Type);
    }

    [Fact]
    public void While_the_venue_stops_the_orders_stay_and_the_session_may_log_on_again()
    {
        using GatewayHarness h = Harness();
        h.LogOn();
        h.Publisher.Accept = false;

        h.Reconnect();
        h.Publisher.Accept = true;
        h.NextClientSeq = 1;
        h.Feed(h.Message("A", "98=0|108=30|141=Y|"));

        Assert.Empty(h.Publisher.Commands);
        Assert.True(h.Gateway.IsLoggedOn(0));
        Assert.Contains(h.Log.Lines, line => line.Contains("its resting orders stay in the book", StringComparison.Ordinal));
    }

    [Fact]
    public void A_fault_while_publishing_the_cancel_still_closes_the_connection_and_frees_the_session()
    {
        using GatewayHarness h = Harness();
        h.LogOn();
        h.Publisher.Fault = new InvalidOperationException("ring faulted");
        FakeConnection first = h.Connection;

        Assert.Throws<InvalidOperationException>(() => h.Reconnect());

        Assert.Equal(1, first.CloseCount);
        h.Publisher.Fault = null;
        var next = new FakeConnection();
        h.Gateway.CreateHandler(next).Process(h.Message("A", "98=0|108=30|"));
        Assert.True(h.Gateway.IsLoggedOn(0));
    }

    [Fact]
    public void The_reports_of_the_cancels_are_kept_for_the_client_s_next_logon()
    {
        using GatewayHarness h = Harness();
        h.LogOn();
        h.Send("D", GatewayHarness.NewOrder());
        h.Reconnect();
        Command cancel = h.Publisher.Commands[^1];

        h.Gateway.SendEvent(
            new EngineEvent
            {
                Type = EventType.Cancelled, SourceCommand = cancel.Type, CancelReason = CancelReason.SessionDisconnected, EventId = 7,
                OwnerId = 0, InstrumentId = 0, OrderId = 3, ClOrdId = ClOrdId.From("ORD-1"), Side = Side.Buy, OrderType = OrderType.Limit,
                Price = 1_434_200, OrderQuantity = 100, Timestamp = cancel.Timestamp,
            },
            default);
        h.Feed(h.Message("A", "98=0|108=30|"));
        h.TakeSent();
        h.Send("2", "7=1|16=0|");

        Dictionary<int, string> report = h.TakeSent().Single(m => m[35] == "8");
        Assert.Equal(("4", "4", "ORD-1", "0", "Y"), (report[150], report[39], report[11], report[151], report[43]));
        Assert.Equal("Canceled on disconnect: the session ended", report[58]);
    }
}
