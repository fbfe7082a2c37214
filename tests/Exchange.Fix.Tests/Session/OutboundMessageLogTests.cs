using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>The memory store's native ring: many messages, large records, laps of the ring and of its index, reset.</summary>
public sealed class OutboundMessageLogTests
{
    [Fact]
    public void Messages_that_fit_read_back_exactly()
    {
        using var log = new OutboundMessageLog();
        var random = new Random(5);
        var bodies = new Dictionary<int, byte[]>();
        for (int seq = 1; seq <= 140_000; seq += random.Next(1, 3)) // skips some
        {
            byte[] body = new byte[random.Next(1, 40)];
            random.NextBytes(body);
            bodies[seq] = body;
            log.Append(seq, "8"u8, seq * 10L, body);
        }

        byte[] huge = new byte[3 * 1024 * 1024];
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

    [Fact]
    public void A_full_ring_overwrites_the_oldest_messages_and_keeps_the_latest()
    {
        using var log = new OutboundMessageLog(capacityBytes: 64 * 1024);
        byte[] body = new byte[1000];
        for (int seq = 1; seq <= 1000; seq++)
        {
            body[0] = (byte)seq;
            log.Append(seq, "8"u8, seq, body);
        }

        // 1,014 bytes a record: 64 fit in 64 KiB (the tail of each lap is skipped, never split).
        for (int seq = 1000; seq > 936; seq--)
        {
            Assert.True(log.TryGet(seq, out StoredMessage message), $"seq {seq}");
            Assert.Equal(unchecked((byte)seq), message.Body[0]);
            Assert.Equal(seq, message.SendingTimeNanos);
        }

        Assert.False(log.TryGet(936, out _));
        Assert.False(log.TryGet(1, out _));
    }

    [Fact]
    public void Messages_beyond_the_index_lap_are_gone_even_when_their_bytes_remain()
    {
        // 4 KiB of ring has 32 index entries: small records outrun the index before the bytes.
        using var log = new OutboundMessageLog(capacityBytes: 4096);
        for (int seq = 1; seq <= 100; seq++)
        {
            log.Append(seq, "8"u8, seq, "1=2\u0001"u8);
        }

        Assert.True(log.TryGet(100, out _));
        Assert.True(log.TryGet(69, out _));
        Assert.False(log.TryGet(68, out _));
        Assert.False(log.TryGet(37, out _));
    }

    [Fact]
    public void A_record_larger_than_the_ring_is_not_stored_and_hides_no_older_message()
    {
        using var log = new OutboundMessageLog(capacityBytes: 4096);
        log.Append(1, "8"u8, 1, "a"u8);
        log.Append(2, "8"u8, 2, new byte[5000]);
        log.Append(3, "8"u8, 3, "b"u8);

        Assert.True(log.TryGet(1, out StoredMessage first));
        Assert.Equal("a"u8.ToArray(), first.Body.ToArray());
        Assert.False(log.TryGet(2, out _));
        Assert.True(log.TryGet(3, out _));
    }

    [Fact]
    public void PreFault_keeps_what_is_stored()
    {
        using var log = new OutboundMessageLog(capacityBytes: 64 * 1024);
        for (int seq = 1; seq <= 300; seq++) // index entries up to 300 * 16 bytes: past a page boundary
        {
            log.Append(seq, "8"u8, seq * 10L, "37=A\u0001"u8);
        }

        log.PreFault();

        for (int seq = 1; seq <= 300; seq++)
        {
            Assert.True(log.TryGet(seq, out StoredMessage message), $"seq {seq}");
            Assert.Equal(seq, message.MsgSeqNum);
            Assert.Equal(seq * 10L, message.SendingTimeNanos);
            Assert.Equal("37=A\u0001"u8.ToArray(), message.Body.ToArray());
        }
    }

    [Fact]
    public void After_Clear_messages_that_fit_in_the_whole_ring_are_all_kept()
    {
        // Records of 100 and 3,000 bytes fit in 4 KiB from its first byte; from offset 1,014 (where the cleared
        // record ended) the second would skip the tail, wrap, and write over the first.
        using var log = new OutboundMessageLog(capacityBytes: 4096);
        log.Append(1, "8"u8, 1, new byte[1000]);

        log.Clear();
        log.Append(1, "8"u8, 1, new byte[86]);
        log.Append(2, "8"u8, 2, new byte[2986]);

        Assert.True(log.TryGet(1, out StoredMessage first));
        Assert.Equal(86, first.Body.Length);
        Assert.True(log.TryGet(2, out StoredMessage second));
        Assert.Equal(2986, second.Body.Length);
    }
}
