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
}
