using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Gateway;
using Exchange.Fix.Tests.Session;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>Client messages through the gateway: logon, orders to commands, and every kind of inbound reject.</summary>
public sealed class GatewayInboundTests
{
    [Fact]
    public void New_order_after_logon_is_published_with_every_field()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Clock.Advance(TimeSpan.FromMilliseconds(5));
        h.Send("D", GatewayHarness.NewOrder("ORD-7", price: "143.42", quantity: 300));

        Command c = Assert.Single(h.Publisher.Commands);
        Assert.Equal(CommandType.NewOrder, c.Type);
        Assert.Equal(0, c.OwnerId);
        Assert.Equal(GatewayHarness.Aapl.Id, c.InstrumentId);
        Assert.Equal(Side.Buy, c.Side);
        Assert.Equal(OrderType.Limit, c.OrderType);
        Assert.Equal(1_434_200, c.Price);
        Assert.Equal(300, c.Quantity);
        Assert.Equal("ORD-7", c.ClOrdId.ToString());
        Assert.Equal(h.Clock.UtcNowNanos, c.Timestamp);
        Assert.Empty(h.TakeSent());
    }

    [Theory]
    [InlineData("97=Y|", true)]
    [InlineData("97=N|", false)]
    [InlineData("43=Y|122=20260302-09:29:59.000|", true)]
    [InlineData("43=Y|122=20260302-09:29:59.000|97=Y|", true)]
    public void New_order_flagged_as_a_possible_resend_is_published_with_the_flag(string header, bool possibleResend)
    {
        // The engine decides whether the ClOrdID names an order it has (then it reports that order's status), so the
        // gateway must neither refuse PossResend (97) nor drop the order, and must pass the flag on. PossDup (43) with a
        // new sequence number says the same.
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(h.Message("D", GatewayHarness.NewOrder("ORD-7"), header: header));

        Command command = Assert.Single(h.Publisher.Commands);
        Assert.Equal("ORD-7", command.ClOrdId.ToString());
        Assert.Equal(possibleResend, command.PossibleResend);
        Assert.Empty(h.TakeSent());
    }

    [Fact]
    public void New_order_with_a_possresend_value_that_is_not_a_boolean_gets_a_session_reject()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(h.Message("D", GatewayHarness.NewOrder("ORD-7"), header: "97=X|"));

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("3", reject[35]);
        Assert.Equal("97", reject[371]);
    }

    [Fact]
    public void An_order_costs_one_clock_read()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] order = h.Message("D", GatewayHarness.NewOrder());
        (int Wall, int Monotonic, int Both) before = ClockReads(h);

        h.Feed(order);

        // The receive time (the command's Timestamp) is also the "now" of the SendingTime accuracy check and of the
        // session's liveness: one reading of both clocks.
        Assert.Single(h.Publisher.Commands);
        Assert.Equal((0, 0, 1), ClockReadsSince(h, before));
    }

    [Fact]
    public void A_report_costs_one_clock_read()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        (int Wall, int Monotonic, int Both) before = ClockReads(h);

        h.Gateway.SendEvent(GatewayOutboundTests.Event(Core.Events.EventType.Accepted, 100, 0), default);

        // SendingTime and the heartbeat timer's "last sent" from one reading.
        Assert.Equal("8", Assert.Single(h.TakeSent())[35]);
        Assert.Equal((0, 0, 1), ClockReadsSince(h, before));
    }

    /// <summary>Reads of the wall clock alone, the monotonic clock alone, and both at once (<c>IClock.Now</c>).</summary>
    private static (int Wall, int Monotonic, int Both) ClockReads(GatewayHarness h) =>
        (h.Clock.UtcReads, h.Clock.MonotonicReads, h.Clock.BothReads);

    private static (int Wall, int Monotonic, int Both) ClockReadsSince(GatewayHarness h, (int Wall, int Monotonic, int Both) before)
    {
        (int wall, int monotonic, int both) = ClockReads(h);
        return (wall - before.Wall, monotonic - before.Monotonic, both - before.Both);
    }

    [Fact]
    public void Order_whose_sending_time_is_off_by_more_than_the_tolerance_at_receipt_is_rejected_then_logged_out()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] order = h.Message("D", GatewayHarness.NewOrder());
        h.Clock.Advance(TimeSpan.FromSeconds(121));

        h.Feed(order);

        Assert.Empty(h.Publisher.Commands);
        List<Dictionary<int, string>> sent = h.TakeSent();
        Assert.Equal(["3", "5"], sent.Select(m => m[35]));
        Assert.Equal("10", sent[0][373]);
        Assert.Equal("52", sent[0][371]);
        Assert.False(h.Gateway.IsLoggedOn(0));
    }

    [Fact]
    public void Order_whose_sending_time_is_inside_the_tolerance_at_receipt_is_published()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] order = h.Message("D", GatewayHarness.NewOrder());
        h.Clock.Advance(TimeSpan.FromSeconds(119));

        h.Feed(order);

        Assert.Single(h.Publisher.Commands);
        Assert.Empty(h.TakeSent());
    }

    [Fact]
    public void Test_request_is_answered_with_a_heartbeat_echoing_its_id()
    {
        using var h = new GatewayHarness();
        h.LogOn();

        h.Send("1", "112=PING-7|");

        Dictionary<int, string> reply = Assert.Single(h.TakeSent());
        Assert.Equal("0", reply[35]);
        Assert.Equal("PING-7", reply[112]);
    }

    [Fact]
    public void Sequence_reset_gap_fill_moves_the_expected_number_to_new_seq_no()
    {
        using var h = new GatewayHarness();
        h.LogOn();

        h.Send("4", "123=Y|36=10|");

        Assert.Equal(10, h.Gateway.GetSession(0).NextTargetSeqNum);
        Assert.Empty(h.TakeSent());
    }

    [Fact]
    public void Sequence_reset_whose_gap_fill_flag_is_not_a_boolean_is_rejected_and_moves_nothing()
    {
        using var h = new GatewayHarness();
        h.LogOn();

        // Without the check, "X" reads as "not Y", i.e. Reset mode, which would jump to 10 regardless of sequencing.
        h.Send("4", "123=X|36=10|");

        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal(("3", "123", "2"), (reject[35], reject[371], reject[45]));
        Assert.Equal(3, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    [Fact]
    public void Cancel_and_replace_are_published()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("F", "41=ORD-1|11=CXL-1|55=AAPL|54=1|60=20260302-09:30:00.000|");
        h.Send("G", "41=ORD-1|11=RPL-1|55=AAPL|54=1|60=20260302-09:30:00.000|38=50|40=2|44=143.5|");

        Assert.Equal([CommandType.Cancel, CommandType.Replace], h.Publisher.Commands.Select(c => c.Type));
        Assert.Equal("ORD-1", h.Publisher.Commands[1].OrigClOrdId.ToString());
        Assert.Equal(1_435_000, h.Publisher.Commands[1].Price);
    }

    [Fact]
    public void Unknown_symbol_is_answered_with_an_execution_report_reject_and_not_published()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", GatewayHarness.NewOrder("ORD-2", symbol: "NOPE"));

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> er = Assert.Single(h.TakeSent());
        Assert.Equal("8", er[35]);
        Assert.Equal("8", er[150]);
        Assert.Equal("8", er[39]);
        Assert.Equal("1", er[103]);
        Assert.Equal("ORD-2", er[11]);
        Assert.Equal("NOPE", er[55]);
        Assert.Equal("Unknown symbol", er[58]);
        Assert.True(long.Parse(er[17], System.Globalization.CultureInfo.InvariantCulture) > 1L << 62);
        Assert.Equal("100", er[38]);
    }

    [Fact]
    public void A_quantity_the_venue_cannot_represent_is_rejected_without_an_order_qty_rather_than_with_38_0()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", "11=ORD-2|55=AAPL|54=1|60=20260302-09:30:00.000|38=10.5|40=2|44=143.42|59=0|");

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> er = Assert.Single(h.TakeSent());
        Assert.Equal(("8", "8", "ORD-2"), (er[150], er[39], er[11]));
        Assert.False(er.ContainsKey(38), "38=0 would read as the order's quantity");
    }

    [Fact]
    public void Cancel_for_an_unknown_symbol_goes_to_the_engine_as_a_refusal_and_its_answer_is_an_order_cancel_reject()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("F", "41=ORD-1|11=CXL-1|55=NOPE|54=1|60=20260302-09:30:00.000|");

        // Only the engine knows ORD-1's state, which the OrderCancelReject must report: the gateway sends nothing itself.
        Assert.Empty(h.TakeSent());
        Command refusal = Assert.Single(h.Publisher.Commands);
        Assert.Equal((CommandType.CancelRefused, RejectReason.UnknownInstrument), (refusal.Type, RefusedRequests.ReasonOf(in refusal)));
        Assert.Equal(("CXL-1", "ORD-1"), (refusal.ClOrdId.ToString(), refusal.OrigClOrdId.ToString()));

        // The engine's answer for a live, partly filled ORD-1.
        EngineEvent answer = EngineEvent.Refusal(in refusal, RejectReason.UnknownInstrument);
        answer.EventId = 5;
        (answer.OrderId, answer.OrderQuantity, answer.LeavesQuantity, answer.CumulativeQuantity) = (77, 100, 60, 40);
        h.Gateway.SendEvent(answer, default);

        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("9", reject[35]);
        Assert.Equal(("CXL-1", "ORD-1", "1"), (reject[11], reject[41], reject[434]));
        Assert.Equal(("77", "1"), (reject[37], reject[39]));
    }

    [Fact]
    public void A_replace_the_gateway_refuses_goes_to_the_engine_with_its_reason()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("G", "41=ORD-1|11=RPL-1|55=AAPL|54=1|60=20260302-09:30:00.000|38=100|40=2|44=143.42|18=6|");

        Assert.Empty(h.TakeSent());
        Command refusal = Assert.Single(h.Publisher.Commands);
        Assert.Equal((CommandType.ReplaceRefused, RejectReason.UnsupportedOrderInstruction), (refusal.Type, RefusedRequests.ReasonOf(in refusal)));
    }

    [Fact]
    public void Field_the_dictionary_rejects_gets_a_session_reject()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", GatewayHarness.NewOrder().Replace("38=100", "38=abc", StringComparison.Ordinal));

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("3", reject[35]);
        Assert.Equal("2", reject[45]);
        Assert.Equal("38", reject[371]);
        Assert.Equal("D", reject[372]);
        Assert.Equal("6", reject[373]);
    }

    [Fact]
    public void Wrong_repeating_group_count_gets_a_session_reject_and_is_not_published()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        const string parties = "453=2|448=FIRM-A|447=D|452=1|448=TRADER-7|447=D|452=11|";
        h.Send("D", GatewayHarness.NewOrder("ORD-1") + parties);
        h.Send("D", GatewayHarness.NewOrder("ORD-2") + parties.Replace("453=2", "453=3", StringComparison.Ordinal));

        Command accepted = Assert.Single(h.Publisher.Commands);
        Assert.Equal("ORD-1", accepted.ClOrdId.ToString());
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("3", reject[35]);
        Assert.Equal("3", reject[45]);
        Assert.Equal("453", reject[371]);
        Assert.Equal("D", reject[372]);
        Assert.Equal("16", reject[373]);
    }

    [Fact]
    public void Field_the_mapping_rejects_gets_a_session_reject()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", GatewayHarness.NewOrder(new string('X', ClOrdId.MaxLength + 1)));

        Assert.Empty(h.Publisher.Commands);
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("3", reject[35]);
        Assert.Equal("11", reject[371]);
        Assert.Equal("2", reject[45]);
        Assert.Equal(new MessageRejects(1, 0), h.Gateway.MessageRejectsSent);
    }

    [Fact]
    public void Unsupported_application_type_gets_a_business_message_reject()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("AF", "584=MS-1|585=7|");

        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("j", reject[35]);
        Assert.Equal("AF", reject[372]);
        Assert.Equal("3", reject[380]);
        Assert.Equal(new MessageRejects(0, 1), h.Gateway.MessageRejectsSent);
    }

    [Fact]
    public void Market_data_request_calls_the_handler_once_per_instrument()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("V", "262=MD-1|263=1|264=5|265=1|267=2|269=0|269=1|146=2|55=AAPL|55=MSFT|");

        Assert.Empty(h.TakeSent());
        Assert.Equal(2, h.MarketData.Requests.Count);
        Assert.All(h.MarketData.Requests, r => Assert.Equal(0, r.Owner));
        Assert.Equal([0, 1], h.MarketData.Requests.Select(r => r.Request.InstrumentId));
        MarketDataSubscription s = h.MarketData.Requests[0].Request;
        Assert.Equal("MD-1", s.MdReqId.ToString());
        Assert.Equal((byte)'1', s.SubscriptionRequestType);
        Assert.Equal(5, s.MarketDepth);
    }

    [Theory]
    [InlineData("262=MD-2|263=1|264=0|267=1|269=0|146=1|55=NOPE|", "0")]
    [InlineData("262=MD-2|263=1|264=0|267=1|269=2|146=1|55=AAPL|", "8")]
    [InlineData("262=MD-2|263=1|264=0|267=3|269=0|269=1|269=2|146=1|55=AAPL|", "8")]
    [InlineData("262=MD-2|263=1|264=0|265=0|267=1|269=0|146=1|55=AAPL|", "6")]
    [InlineData("262=MD-2|263=1|264=0|266=N|267=1|269=0|146=1|55=AAPL|", "7")]
    [InlineData("262=MD-2|263=1|264=0|267=1|269=0|146=1|55=AAPL|", "5")] // full book: not published
    [InlineData("262=MD-2|263=0|264=11|267=1|269=0|146=1|55=AAPL|", "5")] // deeper than the 10 levels published
    public void Invalid_market_data_request_gets_a_market_data_request_reject(string fields, string reason)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("V", fields);

        Assert.Empty(h.MarketData.Requests);
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("Y", reject[35]);
        Assert.Equal("MD-2", reject[262]);
        Assert.Equal(reason, reject[281]);
        Assert.True(reject.ContainsKey(58));
    }

    [Fact]
    public void Live_subscriptions_of_a_logon_are_capped_and_an_unsubscribe_makes_room()
    {
        using var h = new GatewayHarness(new GatewayOptions { MaxMarketDataSubscriptions = 3 });
        h.LogOn();
        for (int i = 0; i < 4; i++)
        {
            h.Send("V", $"262=MD-{i}|263=1|264=5|267=1|269=0|146=1|55=AAPL|");
        }

        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal(("Y", "MD-3", "2"), (reject[35], reject[262], reject[281]));
        Assert.Equal(3, h.MarketData.Requests.Count);

        h.Send("V", "262=MD-0|263=2|264=5|267=1|269=0|146=1|55=AAPL|");
        h.Send("V", "262=MD-3|263=1|264=5|267=1|269=0|146=1|55=AAPL|");
        Assert.Empty(h.TakeSent());
        Assert.Equal(5, h.MarketData.Requests.Count);
    }

    [Fact]
    public void Market_data_request_ids_must_be_new_to_subscribe_and_live_to_unsubscribe()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        const string Book = "264=5|267=2|269=0|269=1|146=1|55=AAPL|";
        h.Send("V", "262=MD-1|263=1|" + Book);
        Assert.Empty(h.TakeSent());

        h.Send("V", "262=MD-1|263=1|264=5|267=2|269=0|269=1|146=1|55=MSFT|"); // another book, same id
        h.Send("V", "262=MD-1|263=0|" + Book); // a snapshot would end the stream of the same id
        h.Send("V", "262=MD-9|263=2|" + Book); // never subscribed
        List<Dictionary<int, string>> rejects = h.TakeSent();
        Assert.Equal(["Y", "Y", "Y"], rejects.Select(m => m[35]));
        Assert.Equal(["1", "1"], rejects.Take(2).Select(m => m[281]));
        Assert.False(rejects[2].ContainsKey(281));
        Assert.Equal("MD-9", rejects[2][262]);
        Assert.Single(h.MarketData.Requests);

        // Unsubscribing ends the whole subscription (whatever symbols it lists); the id can then be used again.
        h.Send("V", "262=MD-1|263=2|264=5|267=2|269=0|269=1|146=1|55=MSFT|");
        h.Send("V", "262=MD-1|263=1|" + Book);
        Assert.Empty(h.TakeSent());
        MarketDataSubscription unsubscribe = h.MarketData.Requests[1].Request;
        Assert.Equal(((byte)'2', -1, "MD-1"), (unsubscribe.SubscriptionRequestType, unsubscribe.InstrumentId, unsubscribe.MdReqId.ToString()));
        Assert.Equal((byte)'1', h.MarketData.Requests[2].Request.SubscriptionRequestType);
    }

    [Fact]
    public void Market_data_unsubscribe_ends_a_live_subscription_even_if_it_names_a_symbol_the_venue_does_not_have()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("V", "262=MD-1|263=1|264=5|267=2|269=0|269=1|146=2|55=AAPL|55=AAPL|");
        Assert.Single(h.MarketData.Requests); // listed twice, one stream

        h.Send("V", "262=MD-1|263=2|264=5|267=1|269=2|146=1|55=NOPE|");

        Assert.Empty(h.TakeSent());
        Assert.Equal((byte)'2', h.MarketData.Requests[^1].Request.SubscriptionRequestType);
    }

    [Fact]
    public void Market_data_subscriptions_carry_the_entry_types_asked_for_and_the_logon_they_belong_to()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("V", "262=MD-1|263=1|264=5|267=1|269=1|146=1|55=AAPL|");
        MarketDataSubscription first = Assert.Single(h.MarketData.Requests).Request;
        Assert.Equal(MarketDataSubscription.Offers, first.EntryTypes);
        Assert.Equal(1, first.Login);

        // The connection ends: that logon's subscriptions are dropped; the next logon's carry the next number.
        h.Handler.OnConnectionEnded();
        Assert.Equal([1], h.MarketData.DisconnectedLogins);
        h.Reconnect();
        h.NextClientSeq = 1;
        h.Feed(h.Message("A", "98=0|108=30|141=Y|"));
        h.TakeSent();
        h.Send("V", "262=MD-1|263=1|264=5|267=2|269=0|269=1|146=1|55=AAPL|");
        Assert.Equal(2, h.MarketData.Requests[^1].Request.Login);
        Assert.Equal(MarketDataSubscription.Bids | MarketDataSubscription.Offers, h.MarketData.Requests[^1].Request.EntryTypes);
    }

    [Fact]
    public void Market_data_reject_echoes_a_very_long_request_id_cut_short_instead_of_failing()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        string id = new('A', 3000);

        h.Send("V", $"262={id}|263=1|264=5|267=2|269=0|269=1|146=1|55=AAPL|");

        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("Y", reject[35]);
        Assert.Equal(new string('A', 64), reject[262]);
        Assert.Equal(0, h.Connection.CloseCount);
    }

    [Theory]
    [InlineData("D")]
    [InlineData("H")]
    [InlineData("q")]
    public void A_huge_unknown_symbol_is_echoed_cut_to_64_bytes_and_the_connection_stays_up(string msgType)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        string symbol = new('Z', 4000);
        string fields = msgType switch
        {
            "D" => GatewayHarness.NewOrder("ORD-4", symbol: symbol),
            "H" => $"11=ORD-4|55={symbol}|54=1|",
            _ => $"11=ORD-4|530=1|55={symbol}|60=20260302-09:30:00.000|",
        };
        h.Send(msgType, fields);

        Dictionary<int, string> reply = Assert.Single(h.TakeSent());
        Assert.Equal(new string('Z', 64), reply[55]);
        Assert.Equal(0, h.Connection.CloseCount);
    }

    [Fact]
    public void Order_refused_because_the_venue_is_stopping_is_rejected_with_that_text()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Publisher.Accept = false;
        h.Send("D", GatewayHarness.NewOrder("ORD-3"));

        Dictionary<int, string> er = Assert.Single(h.TakeSent());
        Assert.Equal("8", er[150]);
        Assert.Equal("ORD-3", er[11]);
        Assert.Equal("venue is stopping", er[58]);
    }

    [Fact]
    public void Garbage_before_logon_closes_the_connection_without_reply()
    {
        using var h = new GatewayHarness();
        h.Feed(System.Text.Encoding.ASCII.GetBytes("hello there\n"));

        Assert.Equal(1, h.Connection.CloseCount);
        Assert.Empty(h.TakeSent());
        Assert.False(h.Gateway.IsLoggedOn(0));
    }

    [Fact]
    public void Garbled_message_after_logon_is_dropped_without_consuming_a_number()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] bad = h.Message("D", GatewayHarness.NewOrder("BAD"), seq: 2);
        bad[^3] = (byte)(bad[^3] == (byte)'0' ? '1' : '0'); // checksum digit
        h.Feed(bad);
        h.Feed(h.Message("D", GatewayHarness.NewOrder("GOOD"), seq: 2));

        Assert.Equal("GOOD", Assert.Single(h.Publisher.Commands).ClOrdId.ToString());
        Assert.Empty(h.TakeSent());
        Assert.Equal(0, h.Connection.CloseCount);
    }

    [Fact]
    public void Garbled_message_with_8_equals_fix_inside_a_value_is_dropped_not_taken_for_a_wrong_begin_string()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] bad = h.Message("D", GatewayHarness.NewOrder("BAD") + "58=FIX rules|", seq: 2);
        bad[^3] = (byte)(bad[^3] == (byte)'0' ? '1' : '0'); // checksum digit
        byte[] good = h.Message("D", GatewayHarness.NewOrder("GOOD"), seq: 2);

        // After the bad checksum the framer resynchronises at the next "8=FIX", which is inside 58=FIX rules.
        h.Feed([.. bad, .. good]);

        Assert.Empty(h.TakeSent());
        Assert.Equal(0, h.Connection.CloseCount);
        Assert.Equal("GOOD", Assert.Single(h.Publisher.Commands).ClOrdId.ToString());
    }

    [Fact]
    public async Task Silent_connection_is_closed_by_poll_after_the_logon_timeout()
    {
        using var h = new GatewayHarness(new GatewayOptions { LogonTimeout = TimeSpan.FromSeconds(2) });
        var pipe = new System.IO.Pipelines.Pipe();
        var connection = new FakeConnection(pipe.Writer);
        Task run = h.Gateway.RunConnectionAsync(connection, pipe.Reader, CancellationToken.None);
        h.Gateway.Poll();
        Assert.Equal(0, connection.CloseCount);

        h.Clock.Advance(TimeSpan.FromSeconds(3));
        h.Gateway.Poll();
        Assert.Equal(1, connection.CloseCount);
        await run.WaitAsync(TimeSpan.FromSeconds(10));
    }

    [Fact]
    public void Orders_queued_behind_a_gap_are_published_in_sequence_order_once_it_fills()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(h.Message("D", GatewayHarness.NewOrder("THIRD"), seq: 3));
        h.Feed(h.Message("D", GatewayHarness.NewOrder("FOURTH"), seq: 4));
        Dictionary<int, string> resendRequest = Assert.Single(h.TakeSent());
        Assert.Equal(("2", "2"), (resendRequest[35], resendRequest[7]));
        Assert.Empty(h.Publisher.Commands);

        h.Feed(h.Message("D", GatewayHarness.NewOrder("SECOND"), seq: 2));

        Assert.Equal(["SECOND", "THIRD", "FOURTH"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.Equal(5, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    [Fact]
    public void Wrong_begin_string_after_logon_logs_out_and_closes()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] fix42 = h.Message("D", GatewayHarness.NewOrder());
        "8=FIX.4.2"u8.CopyTo(fix42);
        h.Feed(fix42);

        Dictionary<int, string> logout = Assert.Single(h.TakeSent());
        Assert.Equal("5", logout[35]);
        Assert.Equal("Incorrect BeginString", logout[58]);
        Assert.Equal(1, h.Connection.CloseCount);
        Assert.Empty(h.Publisher.Commands);
    }
}
