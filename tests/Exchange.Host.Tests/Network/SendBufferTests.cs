using System.Buffers;
using Exchange.Host.Network;
using Xunit;

namespace Exchange.Host.Tests.Network;

public class SendBufferTests
{
    [Fact]
    public void PartialSends_CompactionAndGrowth_KeepEveryByteInOrder()
    {
        var buffer = new SendBuffer(16);
        var expected = new List<byte>();
        var sent = new List<byte>();
        var random = new Random(7);
        byte next = 0;
        for (int round = 0; round < 500; round++)
        {
            int length = random.Next(1, 40);
            int pendingBefore = buffer.Pending;
            Span<byte> span = buffer.GetSpan(length);
            for (int i = 0; i < length; i++)
            {
                span[i] = next;
                expected.Add(next++);
            }

            buffer.Advance(length);
            Assert.Equal(pendingBefore + length, buffer.Commit());

            // The socket takes some of what is pending, sometimes nothing, sometimes all.
            int take = random.Next(0, buffer.Pending + 1);
            sent.AddRange(buffer.PendingSpan[..take].ToArray());
            buffer.Sent(take);
        }

        sent.AddRange(buffer.PendingSpan.ToArray());
        buffer.Sent(buffer.Pending);
        Assert.Equal(0, buffer.Pending);
        Assert.Equal(expected, sent);
    }

    [Fact]
    public void UncommittedBytes_AreNotPending()
    {
        var buffer = new SendBuffer(64);
        buffer.Write("abc"u8);
        Assert.Equal(0, buffer.Pending);
        Assert.Equal(3, buffer.Commit());
        buffer.Write("de"u8);
        Assert.Equal("abc"u8.ToArray(), buffer.PendingSpan.ToArray());
        buffer.Sent(3);
        Assert.Equal(0, buffer.Pending);
        Assert.Equal(2, buffer.Commit());
        Assert.Equal("de"u8.ToArray(), buffer.PendingSpan.ToArray());
    }
}
