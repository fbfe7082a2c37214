using System.Buffers;
using System.Net.Sockets;
using Exchange.Host.Network;
using Xunit;

namespace Exchange.Host.Tests.Network;

/// <summary>A <see cref="PolledConnection"/> over a real loopback socket pair, driven by the test thread as the poller.</summary>
[Collection(Exchange.Tests.Shared.ZeroAllocationCollection.Name)]
public sealed class PolledConnectionTests : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);
    private readonly LoopbackSocketPair _pair = new();

    private Socket Client => _pair.Client;

    private Socket Server => _pair.Server;

    public void Dispose() => _pair.Dispose();

    [Fact]
    public void Received_bytes_accumulate_until_consumed_and_a_partial_message_is_kept()
    {
        using var connection = new PolledConnection(Server, 1, Environment.CurrentManagedThreadId, 64);
        Assert.Equal(ReceiveStatus.NothingNew, connection.Receive());

        Client.Send("hello"u8);
        Assert.Equal(ReceiveStatus.Received, ReceiveUntilData(connection));
        Assert.Equal("hello"u8.ToArray(), connection.Received.ToArray());
        connection.Consume(2);
        Assert.Equal("llo"u8.ToArray(), connection.Received.ToArray());

        // More than the buffer's free tail: the unconsumed bytes move to the front, nothing is lost or reordered.
        byte[] more = Enumerable.Range(0, 60).Select(i => (byte)('a' + (i % 26))).ToArray();
        Client.Send(more);
        var all = new List<byte>("llo"u8.ToArray());
        all.AddRange(more);
        while (connection.Received.Length < all.Count)
        {
            Assert.NotEqual(ReceiveStatus.Closed, ReceiveUntilData(connection));
        }

        Assert.Equal(all, connection.Received.ToArray());
        connection.Consume(connection.Received.Length);
        Assert.Equal(0, connection.Received.Length);
    }

    [Fact]
    public void A_flush_on_the_polling_thread_waits_for_SendPending_and_one_elsewhere_sends_at_once()
    {
        using var polled = new PolledConnection(Server, 1, Environment.CurrentManagedThreadId, 1024);
        Write(polled, "abc"u8);
        Assert.Equal(3, polled.Backlog);
        Thread.Sleep(50);
        Assert.Equal(0, Client.Available);
        polled.SendPending();
        Assert.Equal(0, polled.Backlog);
        Assert.Equal("abc", ReadExactly(3));

        var other = new Thread(() => Write(polled, "xyz"u8));
        other.Start();
        Assert.True(other.Join(Timeout));
        Assert.Equal(0, polled.Backlog);
        Assert.Equal("xyz", ReadExactly(3));
    }

    [Fact]
    public void A_client_that_does_not_read_builds_a_backlog_that_drains_in_order_once_it_reads()
    {
        Client.ReceiveBufferSize = 4096;
        Server.SendBufferSize = 4096;
        using var polled = new PolledConnection(Server, 1, Environment.CurrentManagedThreadId, 1024);
        byte[] chunk = new byte[1000];
        const int chunks = 200;
        for (int i = 0; i < chunks; i++)
        {
            chunk.AsSpan().Fill((byte)i);
            Write(polled, chunk);
            polled.SendPending();
        }

        Assert.True(polled.Backlog > 0, "200 KB cannot fit in small socket buffers");

        byte[] received = new byte[chunks * chunk.Length];
        int total = 0;
        while (total < received.Length)
        {
            polled.SendPending();
            if (Client.Poll(10_000, SelectMode.SelectRead))
            {
                total += Client.Receive(received, total, received.Length - total, SocketFlags.None);
            }
        }

        Assert.Equal(0, polled.Backlog);
        for (int i = 0; i < chunks; i++)
        {
            Assert.True(received.AsSpan(i * chunk.Length, chunk.Length).IndexOfAnyExcept((byte)i) < 0, $"chunk {i} out of order");
        }
    }

    [Fact]
    public async Task Close_sends_what_is_queued_then_the_client_sees_the_end_and_the_peer_closing_is_seen()
    {
        var polled = new PolledConnection(Server, 1, Environment.CurrentManagedThreadId, 1024);
        Write(polled, "bye"u8);
        await polled.CloseAsync(TimeSpan.FromSeconds(5));
        Assert.False(polled.CanWrite);
        Assert.Equal("bye", ReadExactly(3));
        Assert.Equal(0, Client.Receive(new byte[8]));
        Assert.Equal(ReceiveStatus.Closed, polled.Receive());
    }

    [Fact]
    public void The_client_closing_is_reported_as_closed()
    {
        using var polled = new PolledConnection(Server, 1, Environment.CurrentManagedThreadId, 1024);
        Client.Shutdown(SocketShutdown.Both);
        Assert.Equal(ReceiveStatus.Closed, ReceiveUntilData(polled));
        Assert.True(polled.IsClosed);
    }

    [Fact]
    public void Polled_reads_and_writes_allocate_nothing_in_steady_state()
    {
        using var polled = new PolledConnection(Server, 1, Environment.CurrentManagedThreadId, 4096);
        byte[] message = new byte[200];
        byte[] reply = new byte[300];
        void RoundTrips(int count)
        {
            for (int i = 0; i < count; i++)
            {
                Client.Send(message, SocketFlags.None);
                int have = 0;
                while (have < message.Length)
                {
                    if (polled.Receive() == ReceiveStatus.Received)
                    {
                        have = polled.Received.Length;
                    }
                }

                polled.Consume(polled.Received.Length);
                lock (polled.WriteLock)
                {
                    polled.Output.Write(reply);
                    polled.Flush();
                }

                polled.SendPending();
                int got = 0;
                while (got < reply.Length)
                {
                    got += Client.Receive(reply.AsSpan(got), SocketFlags.None);
                }
            }
        }

        RoundTrips(2_000);
        long allocated = long.MaxValue;
        for (int attempt = 0; attempt < 3 && allocated != 0; attempt++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            RoundTrips(5_000);
            allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        }

        Assert.Equal(0, allocated);
    }

    private static void Write(PolledConnection connection, ReadOnlySpan<byte> bytes)
    {
        lock (connection.WriteLock)
        {
            connection.Output.Write(bytes);
            connection.Flush();
        }
    }

    private static ReceiveStatus ReceiveUntilData(PolledConnection connection)
    {
        DateTime deadline = DateTime.UtcNow + Timeout;
        while (DateTime.UtcNow < deadline)
        {
            ReceiveStatus status = connection.Receive();
            if (status != ReceiveStatus.NothingNew)
            {
                return status;
            }

            Thread.Sleep(1);
        }

        throw new TimeoutException("nothing arrived");
    }

    private string ReadExactly(int count)
    {
        byte[] buffer = new byte[count];
        int read = 0;
        Client.ReceiveTimeout = (int)Timeout.TotalMilliseconds;
        while (read < count)
        {
            int n = Client.Receive(buffer, read, count - read, SocketFlags.None);
            Assert.True(n > 0, "connection closed early");
            read += n;
        }

        return System.Text.Encoding.ASCII.GetString(buffer);
    }
}
