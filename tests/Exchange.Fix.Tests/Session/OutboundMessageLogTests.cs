using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>The memory store's native log: chunk and index-chunk boundaries, oversized records, reset.</summary>
public sealed class OutboundMessageLogTests
{
    [Fact]
    public void Messages_across_data_and_index_chunks_read_back_exactly()
    {
        using var log = new OutboundMessageLog();
        var random = new Random(5);
        var bodies = new Dictionary<int, byte[]>();
        for (int seq = 1; seq <= 140_000; seq += random.Next(1, 3)) // crosses two 65,536-entry index chunks, skips some
        {
            byte[] body = new byte[random.Next(1, 40)];
            random.NextBytes(body);
            bodies[seq] = body;
            log.Append(seq, "8"u8, seq * 10L, body);
        }

        byte[] huge = new byte[3 * 1024 * 1024]; // larger than a data chunk
        random.NextBytes(huge);
        log.Append(140_001, "W"u8, 7, huge);

        foreach ((int seq, byte[] body) in bodies)
        {
            Assert.True(log.TryGet(seq, out StoredMessage message), $"seq {seq}");
            Assert.Equal(seq * 10L, message.SendingTimeNanos);
            Assert.Equal(body, message.Body.ToArray());
        }

        Assert.True(log.TryGet(140_001, out StoredMessage big));
        Assert.Equal("W"u8.ToArray(), big.MsgType.ToArray());
        Assert.Equal(huge, big.Body.ToArray());

        int missing = Enumerable.Range(1, 140_000).First(seq => !bodies.ContainsKey(seq));
        Assert.False(log.TryGet(missing, out _));
        Assert.False(log.TryGet(0, out _));
        Assert.False(log.TryGet(10_000_000, out _));
    }

    [Fact]
    public void Clear_forgets_everything_and_the_log_is_reusable()
    {
        using var log = new OutboundMessageLog();
        for (int seq = 1; seq <= 70_000; seq++)
        {
            log.Append(seq, "8"u8, seq, new byte[64]);
        }

        log.Clear();
        Assert.False(log.TryGet(1, out _));
        Assert.False(log.TryGet(70_000, out _));

        log.Append(1, "8"u8, 42, "37=X\u0001"u8);
        Assert.True(log.TryGet(1, out StoredMessage message));
        Assert.Equal(42, message.SendingTimeNanos);
        Assert.Equal("37=X\u0001"u8.ToArray(), message.Body.ToArray());
    }
}
