using Exchange.Core.Domain;
using Exchange.Core.MarketData;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Gateway;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>W and X through the gateway: fields, depth limit, the diff, and FIX 4.4 dictionary validity.</summary>
public sealed class MarketDataEncodingTests
{
    private static MarketDataSubscription Subscription(int depth, byte entryTypes = MarketDataSubscription.Bids | MarketDataSubscription.Offers) => new()
    {
        MdReqId = ClOrdId.From("MD-1"),
        SubscriptionRequestType = (byte)'1',
        MarketDepth = depth,
        InstrumentId = 0,
        EntryTypes = entryTypes,
        Login = 1, // the harness's first logon
    };

    private static BookDepth Book((long Px, long Qty, int N)[] bids, (long Px, long Qty, int N)[] asks)
    {
        var d = new BookDepth { InstrumentId = 0, BidCount = bids.Length, AskCount = asks.Length };
        for (int i = 0; i < bids.Length; i++)
        {
            d.Bids[i] = new DepthLevel { Price = bids[i].Px, Quantity = bids[i].Qty, OrderCount = bids[i].N };
        }

        for (int i = 0; i < asks.Length; i++)
        {
            d.Asks[i] = new DepthLevel { Price = asks[i].Px, Quantity = asks[i].Qty, OrderCount = asks[i].N };
        }

        return d;
    }

    /// <summary>All fields of each message in wire order, after checking the frame against the FIX 4.4 dictionary.</summary>
    internal static List<List<(int Tag, string Value)>> TakeValidated(GatewayHarness h)
    {
        var result = new List<List<(int, string)>>();
        var framer = new FixFramer();
        var message = new FixMessage();
        var seq = new System.Buffers.ReadOnlySequence<byte>(h.Connection.Recorded.Flushed.ToArray());
        while (!seq.IsEmpty)
        {
            Assert.Equal(FrameResult.Complete, framer.TryReadFrame(seq, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out _, out _));
            message.Parse(frame);
            FixFieldError error = FixDictionary.Fix44.Validate(message);
            Assert.False(error.IsError, $"invalid: tag {error.Tag} reason {error.Reason}");
            var fields = new List<(int, string)>();
            for (int i = 0; i < message.FieldCount; i++)
            {
                fields.Add((message.TagAt(i), System.Text.Encoding.ASCII.GetString(message.ValueAt(i))));
            }

            result.Add(fields);
            seq = seq.Slice(consumed);
        }

        h.Connection.Recorded.Clear();
        return result;
    }

    private static string Entries(List<(int Tag, string Value)> fields, int firstTag)
    {
        int start = fields.FindIndex(f => f.Tag == firstTag);
        return string.Join("|", fields.Skip(start).TakeWhile(f => f.Tag != 10).Select(f => $"{f.Tag}={f.Value}"));
    }

    [Fact]
    public void Snapshot_lists_both_sides_best_first_up_to_market_depth()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        BookDepth book = Book([(1_434_200, 100, 2), (1_434_100, 50, 1)], [(1_434_300, 70, 3)]);
        h.Gateway.SendMarketDataSnapshot(0, Subscription(depth: 1), book);

        List<(int Tag, string Value)> w = Assert.Single(TakeValidated(h));
        Assert.Contains((35, "W"), w);
        Assert.Contains((262, "MD-1"), w);
        Assert.Contains((55, "AAPL"), w);
        Assert.Equal("268=2|269=0|270=143.42|271=100|346=2|290=1|269=1|270=143.43|271=70|346=3|290=1", Entries(w, 268));
    }

    [Fact]
    public void Incremental_sends_deletes_worst_first_then_new_and_changed_levels_best_first()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        BookDepth before = Book([(1_434_200, 100, 2), (1_434_100, 50, 1), (1_434_000, 10, 1)], [(1_434_300, 70, 3)]);
        BookDepth after = Book([(1_434_300, 5, 1), (1_434_200, 100, 2), (1_434_000, 20, 2)], [(1_434_400, 70, 3)]);
        h.Gateway.SendMarketDataIncremental(0, Subscription(depth: 0), before, after);

        List<(int Tag, string Value)> x = Assert.Single(TakeValidated(h));
        Assert.Contains((35, "X"), x);
        Assert.Equal(
            "268=5" +
            "|279=2|269=0|55=AAPL|270=143.41|290=2" +
            "|279=0|269=0|55=AAPL|270=143.43|271=5|346=1|290=1" +
            "|279=1|269=0|55=AAPL|270=143.4|271=20|346=2|290=3" +
            "|279=2|269=1|55=AAPL|270=143.43|290=1" +
            "|279=0|269=1|55=AAPL|270=143.44|271=70|346=3|290=1",
            Entries(x, 268));
    }

    [Fact]
    public void A_subscription_to_offers_only_gets_no_bids_in_its_snapshot_or_refreshes()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        BookDepth before = Book([(1_434_200, 100, 2)], [(1_434_300, 70, 3)]);
        BookDepth bidsMoved = Book([(1_434_250, 10, 1)], [(1_434_300, 70, 3)]);
        BookDepth offersMoved = Book([(1_434_250, 10, 1)], [(1_434_300, 60, 3)]);
        MarketDataSubscription offers = Subscription(depth: 0, MarketDataSubscription.Offers);

        h.Gateway.SendMarketDataSnapshot(0, offers, before);
        h.Gateway.SendMarketDataIncremental(0, offers, before, bidsMoved);
        h.Gateway.SendMarketDataIncremental(0, offers, bidsMoved, offersMoved);

        List<List<(int Tag, string Value)>> sent = TakeValidated(h);
        Assert.Equal(2, sent.Count); // the bid-only change is not sent at all
        Assert.Equal("268=1|269=1|270=143.43|271=70|346=3|290=1", Entries(sent[0], 268));
        Assert.Equal("268=1|279=1|269=1|55=AAPL|270=143.43|271=60|346=3|290=1", Entries(sent[1], 268));
    }

    [Fact]
    public void Several_deletes_on_one_side_go_from_the_worst_position_up()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        BookDepth before = Book([(1_434_200, 100, 2), (1_434_100, 50, 1), (1_434_000, 10, 1)], []);
        BookDepth after = Book([(1_433_900, 7, 1)], []);
        h.Gateway.SendMarketDataIncremental(0, Subscription(depth: 0), before, after);

        List<(int Tag, string Value)> x = Assert.Single(TakeValidated(h));
        Assert.Equal(
            "268=4|279=2|269=0|55=AAPL|270=143.4|290=3|279=2|269=0|55=AAPL|270=143.41|290=2" +
            "|279=2|269=0|55=AAPL|270=143.42|290=1|279=0|269=0|55=AAPL|270=143.39|271=7|346=1|290=1",
            Entries(x, 268));
    }

    [Fact]
    public void Incremental_respects_market_depth_and_sends_nothing_when_the_visible_levels_are_equal()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        BookDepth before = Book([(1_434_200, 100, 2), (1_434_100, 50, 1)], []);
        BookDepth deeperChange = Book([(1_434_200, 100, 2), (1_434_100, 99, 4)], []);
        h.Gateway.SendMarketDataIncremental(0, Subscription(depth: 1), before, deeperChange);
        Assert.Empty(TakeValidated(h));

        BookDepth newBest = Book([(1_434_300, 1, 1), (1_434_200, 100, 2)], []);
        h.Gateway.SendMarketDataIncremental(0, Subscription(depth: 1), before, newBest);
        List<(int Tag, string Value)> x = Assert.Single(TakeValidated(h));
        Assert.Equal("268=2|279=2|269=0|55=AAPL|270=143.42|290=1|279=0|269=0|55=AAPL|270=143.43|271=1|346=1|290=1", Entries(x, 268));
    }

    [Fact]
    public void Market_data_of_an_earlier_logon_is_dropped_even_before_the_publisher_hears_the_logon_ended()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Reconnect();
        h.NextClientSeq = 1;
        h.Feed(h.Message("A", "98=0|108=30|141=Y|"));
        h.Connection.Recorded.Clear();

        h.Gateway.SendMarketDataSnapshot(0, Subscription(0), Book([(1_434_200, 100, 2)], [])); // logon 1's
        Assert.Empty(TakeValidated(h));
        h.Gateway.SendMarketDataSnapshot(0, Subscription(0) with { Login = 2 }, Book([(1_434_200, 100, 2)], []));
        Assert.Single(TakeValidated(h));
    }

    [Fact]
    public void Market_data_is_not_sent_or_numbered_while_the_owner_is_away()
    {
        using var h = new GatewayHarness();
        h.Gateway.SendMarketDataSnapshot(0, Subscription(0), Book([(1_434_200, 100, 2)], []));
        Assert.Empty(TakeValidated(h));
        Assert.Equal(1, h.Gateway.GetSession(0).NextSenderSeqNum);
    }
}
