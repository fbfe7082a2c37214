using Exchange.Core.Domain;
using Exchange.Core.MarketData;
using Exchange.Fix.Gateway;
using Exchange.Host.MarketData;
using Microsoft.Extensions.Logging.Abstractions;
using Xunit;

namespace Exchange.Host.Tests.Venue;

public sealed class MarketDataPublisherTests
{
    [Fact]
    public void A_subscriber_gets_a_snapshot_then_one_incremental_per_changed_version_until_it_unsubscribes()
    {
        var store = new FakeMarketDataStore();
        store.Initialize(2);
        store.Publish(Depth(0, version: 1, bidQuantity: 100));
        var gateway = new FakeGateway();
        using var publisher = new MarketDataPublisher(store, 2, periodMicroseconds: 1000, NullLogger.Instance);
        publisher.Start(gateway);

        publisher.OnMarketDataRequest(1, Request("MD1", '1', instrument: 0));
        Assert.True(SpinWait.SpinUntil(() => gateway.Snapshots().Count == 1, TimeSpan.FromSeconds(10)));
        (int owner, MarketDataSubscription subscription, BookDepth snapshot) = gateway.Snapshots()[0];
        Assert.Equal(1, owner);
        Assert.Equal("MD1", subscription.MdReqId.ToString());
        Assert.Equal(100, snapshot.Bids[0].Quantity);

        store.Publish(Depth(0, version: 2, bidQuantity: 150));
        Assert.True(SpinWait.SpinUntil(() => gateway.Incrementals().Count == 1, TimeSpan.FromSeconds(10)));
        var first = gateway.Incrementals()[0];
        Assert.Equal(100, first.Previous.Bids[0].Quantity);
        Assert.Equal(150, first.Current.Bids[0].Quantity);

        // Another book changing sends nothing to this subscriber; its own book changing again sends from version 2.
        store.Publish(Depth(1, version: 1, bidQuantity: 5));
        store.Publish(Depth(0, version: 3, bidQuantity: 175));
        Assert.True(SpinWait.SpinUntil(() => gateway.Incrementals().Count == 2, TimeSpan.FromSeconds(10)));
        var second = gateway.Incrementals()[1];
        Assert.Equal(0, second.Current.InstrumentId);
        Assert.Equal(2, second.Previous.Version);
        Assert.Equal(3, second.Current.Version);

        publisher.OnMarketDataRequest(1, Request("MD1", '2', instrument: 0));
        publisher.OnMarketDataRequest(1, Request("MD2", '0', instrument: 1)); // snapshot only: marks the unsubscribe as handled
        Assert.True(SpinWait.SpinUntil(() => gateway.Snapshots().Count == 2, TimeSpan.FromSeconds(10)));
        store.Publish(Depth(0, version: 4, bidQuantity: 1));
        store.Publish(Depth(1, version: 2, bidQuantity: 1));
        Thread.Sleep(30);
        Assert.Equal(2, gateway.Incrementals().Count);
    }

    [Fact]
    public void A_disconnected_session_loses_its_subscriptions()
    {
        var store = new FakeMarketDataStore();
        store.Initialize(1);
        var gateway = new FakeGateway();
        using var publisher = new MarketDataPublisher(store, 1, periodMicroseconds: 1000, NullLogger.Instance);
        publisher.Start(gateway);
        publisher.OnMarketDataRequest(0, Request("A", '1', instrument: 0));
        publisher.OnMarketDataRequest(1, Request("B", '1', instrument: 0));
        publisher.OnSessionDisconnected(0, login: 1);
        publisher.OnMarketDataRequest(1, Request("C", '0', instrument: 0));
        Assert.True(SpinWait.SpinUntil(() => gateway.Snapshots().Count == 3, TimeSpan.FromSeconds(10)));

        // Never published before the subscription: the snapshot is an empty book of the right instrument.
        Assert.Equal(0, gateway.Snapshots()[0].Depth.BidCount);

        store.Publish(Depth(0, version: 1, bidQuantity: 10));
        Assert.True(SpinWait.SpinUntil(() => gateway.Incrementals().Count >= 1, TimeSpan.FromSeconds(10)));
        Thread.Sleep(30);
        var only = Assert.Single(gateway.Incrementals());
        Assert.Equal(1, only.Owner);
    }

    [Fact]
    public void Dropping_a_sessions_subscriptions_keeps_every_other_one_in_order()
    {
        var store = new FakeMarketDataStore();
        store.Initialize(2);
        var gateway = new FakeGateway();
        using var publisher = new MarketDataPublisher(store, 2, periodMicroseconds: 1000, NullLogger.Instance);
        publisher.Start(gateway);
        for (int i = 0; i < 300; i++)
        {
            publisher.OnMarketDataRequest(i % 3 == 0 ? 0 : 1, Request($"S{i}", '1', instrument: i % 2));
        }

        publisher.OnSessionDisconnected(0, login: 1);
        Assert.True(SpinWait.SpinUntil(() => gateway.Snapshots().Count == 300, TimeSpan.FromSeconds(10)));

        store.Publish(Depth(0, version: 1, bidQuantity: 10));
        store.Publish(Depth(1, version: 1, bidQuantity: 10));
        Assert.True(SpinWait.SpinUntil(() => gateway.Incrementals().Count >= 200, TimeSpan.FromSeconds(10)));
        Thread.Sleep(30);
        var incrementals = gateway.Incrementals();
        Assert.Equal(200, incrementals.Count);
        Assert.All(incrementals, x => Assert.Equal(1, x.Owner));
        for (int instrument = 0; instrument < 2; instrument++)
        {
            // Each book's subscribers are served in the order they subscribed.
            Assert.Equal(
                Enumerable.Range(0, 300).Where(i => i % 3 != 0 && i % 2 == instrument).Select(i => $"S{i}"),
                incrementals.Where(x => x.Current.InstrumentId == instrument).Select(x => x.Subscription.MdReqId.ToString()));
        }
    }

    [Fact]
    public void A_request_read_before_its_logon_ended_but_queued_after_is_dropped_and_a_newer_logons_is_kept()
    {
        var store = new FakeMarketDataStore();
        store.Initialize(1);
        var gateway = new FakeGateway();
        using var publisher = new MarketDataPublisher(store, 1, periodMicroseconds: 1000, NullLogger.Instance);
        publisher.Start(gateway);
        publisher.OnMarketDataRequest(0, Request("OLD", '1', instrument: 0, login: 1));
        publisher.OnMarketDataRequest(0, Request("NEW", '1', instrument: 0, login: 2)); // the next logon came quickly
        publisher.OnSessionDisconnected(0, login: 1);
        publisher.OnMarketDataRequest(0, Request("LATE", '1', instrument: 0, login: 1));
        publisher.OnMarketDataRequest(0, Request("MARK", '0', instrument: 0, login: 2)); // snapshot only: marks the queue as handled
        Assert.True(SpinWait.SpinUntil(() => gateway.Snapshots().Count == 3, TimeSpan.FromSeconds(10)));

        store.Publish(Depth(0, version: 1, bidQuantity: 10));
        Assert.True(SpinWait.SpinUntil(() => gateway.Incrementals().Count >= 1, TimeSpan.FromSeconds(10)));
        Thread.Sleep(30);
        Assert.Equal(["OLD", "NEW", "MARK"], gateway.Snapshots().Select(s => s.Subscription.MdReqId.ToString()));
        Assert.Equal("NEW", Assert.Single(gateway.Incrementals()).Subscription.MdReqId.ToString());
    }

    [Fact]
    public void A_late_unsubscribe_of_an_ended_logon_leaves_the_next_logons_subscription_with_the_same_id()
    {
        // Logon 1's unsubscribe was read before a timer ended that logon, but queued after logon 2 subscribed under
        // the same MDReqID and before logon 1's disconnect reached the publisher.
        var store = new FakeMarketDataStore();
        store.Initialize(1);
        var gateway = new FakeGateway();
        using var publisher = new MarketDataPublisher(store, 1, periodMicroseconds: 1000, NullLogger.Instance);
        publisher.Start(gateway);
        publisher.OnMarketDataRequest(0, Request("MD1", '1', instrument: 0, login: 1));
        publisher.OnMarketDataRequest(0, Request("MD1", '1', instrument: 0, login: 2));
        publisher.OnMarketDataRequest(0, Request("MD1", '2', instrument: -1, login: 1));
        publisher.OnSessionDisconnected(0, login: 1);
        publisher.OnMarketDataRequest(0, Request("MARK", '0', instrument: 0, login: 2)); // snapshot only: marks the queue as handled
        Assert.True(SpinWait.SpinUntil(() => gateway.Snapshots().Count == 3, TimeSpan.FromSeconds(10)));

        store.Publish(Depth(0, version: 1, bidQuantity: 10));
        Assert.True(SpinWait.SpinUntil(() => gateway.Incrementals().Count >= 1, TimeSpan.FromSeconds(10)));
        Thread.Sleep(30);
        MarketDataSubscription streamed = Assert.Single(gateway.Incrementals()).Subscription;
        Assert.Equal(("MD1", 2), (streamed.MdReqId.ToString(), streamed.Login));
    }

    [Fact]
    public void A_session_whose_sends_fail_does_not_stop_market_data_to_the_others()
    {
        var store = new FakeMarketDataStore();
        store.Initialize(1);
        store.Publish(Depth(0, version: 1, bidQuantity: 100));
        var gateway = new FakeGateway();
        using var publisher = new MarketDataPublisher(store, 1, periodMicroseconds: 1000, NullLogger.Instance);
        publisher.Start(gateway);
        publisher.OnMarketDataRequest(1, Request("MD1", '1', instrument: 0));
        publisher.OnMarketDataRequest(2, Request("MD2", '1', instrument: 0));
        Assert.True(SpinWait.SpinUntil(() => gateway.Snapshots().Count == 2, TimeSpan.FromSeconds(10)));

        // Session 1, subscribed first, now fails every send; session 2 still gets every change, and a request after
        // a failing one (a new subscription of session 1, then one of session 2) is still handled.
        gateway.FailMarketDataTo = 1;
        store.Publish(Depth(0, version: 2, bidQuantity: 150));
        Assert.True(SpinWait.SpinUntil(() => gateway.Incrementals().Any(i => i.Owner == 2), TimeSpan.FromSeconds(10)));
        publisher.OnMarketDataRequest(1, Request("MD3", '1', instrument: 0));
        publisher.OnMarketDataRequest(2, Request("MD4", '0', instrument: 0));
        Assert.True(SpinWait.SpinUntil(() => gateway.Snapshots().Count == 3, TimeSpan.FromSeconds(10)));
        Assert.Equal("MD4", gateway.Snapshots()[2].Subscription.MdReqId.ToString());

        // Session 1's failed stream has ended: a send can throw after its message went out, so no later diff could be
        // trusted to apply. It is tried once, not every period; session 2 goes on. (MD3, whose snapshot failed, never opened.)
        gateway.FailMarketDataTo = -1;
        store.Publish(Depth(0, version: 3, bidQuantity: 175));
        Assert.True(SpinWait.SpinUntil(() => gateway.Incrementals().Count(i => i.Current.Version == 3) == 1, TimeSpan.FromSeconds(10)));
        Thread.Sleep(30);
        Assert.Equal([(2, 3L)], gateway.Incrementals().Where(i => i.Current.Version == 3).Select(i => (i.Owner, i.Current.Version)));
        Assert.DoesNotContain(gateway.Incrementals(), i => i.Subscription.MdReqId.ToString() == "MD1");
        Assert.Equal(2, gateway.FailedMarketDataSends); // MD1's update, MD3's snapshot: each tried once
    }

    private static MarketDataSubscription Request(string id, char type, int instrument, int login = 1) => new()
    {
        MdReqId = ClOrdId.From(id),
        SubscriptionRequestType = (byte)type,
        MarketDepth = 10,
        InstrumentId = instrument,
        EntryTypes = MarketDataSubscription.Bids | MarketDataSubscription.Offers,
        Login = login,
    };

    private static BookDepth Depth(int instrument, long version, long bidQuantity)
    {
        var depth = new BookDepth { InstrumentId = instrument, Version = version, BidCount = 1 };
        depth.Bids[0] = new DepthLevel { Price = 1_000_000, Quantity = bidQuantity, OrderCount = 1 };
        return depth;
    }
}
