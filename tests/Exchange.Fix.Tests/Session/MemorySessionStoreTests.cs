using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

public sealed class MemorySessionStoreTests
{
    [Fact]
    public void Stores_and_returns_messages_by_seqnum_across_buffer_growth()
    {
        using var store = new MemorySessionStore();
        byte[] body = new byte[1000];
        for (int seq = 1; seq <= 5000; seq += 2)
        {
            body[0] = (byte)seq;
            store.StoreOutbound(seq, "8"u8, seq * 10L, body);
        }

        Assert.Equal(5000, store.NextSenderSeqNum);
        Assert.True(store.TryGetOutbound(4001, out StoredMessage m));
        Assert.Equal(40010, m.SendingTimeNanos);
        Assert.Equal(unchecked((byte)4001), m.Body[0]);
        Assert.Equal(1000, m.Body.Length);
        Assert.False(store.TryGetOutbound(4000, out _));
        Assert.False(store.TryGetOutbound(0, out _));
        Assert.False(store.TryGetOutbound(99_999, out _));

        store.Reset(firstQueuedSeqNum: 1, sendingTimeNanos: 0);
        Assert.False(store.TryGetOutbound(4001, out _));
        Assert.Equal(1, store.NextSenderSeqNum);
    }

    [Fact]
    public void A_reset_keeps_the_queued_messages_of_a_ring_that_has_lapped()
    {
        using var store = new MemorySessionStore(capacityBytes: 4096);
        byte[] body = new byte[100];
        for (int seq = 1; seq <= 50; seq++) // 114 bytes a record: the ring has gone round once
        {
            body[0] = (byte)seq;
            store.StoreOutbound(seq, "8"u8, seq, body, eventId: seq, queued: seq > 47);
        }

        store.Reset(firstQueuedSeqNum: 2, sendingTimeNanos: 777);

        Assert.Equal(5, store.NextSenderSeqNum);
        for (int seq = 2; seq <= 4; seq++)
        {
            Assert.True(store.TryGetOutbound(seq, out StoredMessage message), $"seq {seq}");
            Assert.Equal(seq, message.MsgSeqNum);
            Assert.Equal(777, message.SendingTimeNanos);
            Assert.Equal(46 + seq, message.Body[0]); // messages 48, 49, 50 renumbered 2, 3, 4
            Assert.True(store.IsQueued(seq));
        }

        Assert.False(store.TryGetOutbound(1, out _));
        Assert.False(store.TryGetOutbound(5, out _));
    }
}
