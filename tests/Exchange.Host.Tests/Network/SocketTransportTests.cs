using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Exchange.Host.Network;
using Xunit;

namespace Exchange.Host.Tests.Network;

public sealed class SocketTransportTests
{
    [Fact]
    public async Task Bytes_flow_both_ways_and_the_backlog_drains_to_zero()
    {
        var accepted = new TaskCompletionSource<SocketConnection>();
        await using var listener = new SocketListener(new IPEndPoint(IPAddress.Loopback, 0), (socket, id) => { accepted.SetResult(new SocketConnection(socket, id)); return Task.CompletedTask; });
        listener.Start();

        using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await client.ConnectAsync(listener.LocalEndPoint);
        await using SocketConnection server = await accepted.Task.WaitAsync(TimeSpan.FromSeconds(10));

        await client.SendAsync("hello venue"u8.ToArray(), SocketFlags.None);
        string received = await ReadAtLeast(server.Input, 11);
        Assert.Equal("hello venue", received);

        lock (server.WriteLock)
        {
            server.Output.Write("hello client"u8);
            server.Flush();
        }

        var buffer = new byte[64];
        int total = 0;
        while (total < 12)
        {
            total += await client.ReceiveAsync(buffer.AsMemory(total), SocketFlags.None).AsTask().WaitAsync(TimeSpan.FromSeconds(10));
        }

        Assert.Equal("hello client", Encoding.ASCII.GetString(buffer, 0, total));
        SpinWait.SpinUntil(() => server.Backlog == 0, TimeSpan.FromSeconds(10));
        Assert.Equal(0, server.Backlog);
    }

    [Fact]
    public async Task Close_sends_what_was_queued_then_ends_the_stream()
    {
        var accepted = new TaskCompletionSource<SocketConnection>();
        await using var listener = new SocketListener(new IPEndPoint(IPAddress.Loopback, 0), (socket, id) => { accepted.SetResult(new SocketConnection(socket, id)); return Task.CompletedTask; });
        listener.Start();
        using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await client.ConnectAsync(listener.LocalEndPoint);
        SocketConnection server = await accepted.Task.WaitAsync(TimeSpan.FromSeconds(10));

        lock (server.WriteLock)
        {
            server.Output.Write("bye"u8);
            server.Flush();
        }

        await server.CloseAsync(TimeSpan.FromSeconds(5));
        Assert.False(server.CanWrite);

        var received = new List<byte>();
        var buffer = new byte[16];
        int n;
        while ((n = await client.ReceiveAsync(buffer.AsMemory(), SocketFlags.None).AsTask().WaitAsync(TimeSpan.FromSeconds(10))) > 0)
        {
            received.AddRange(buffer.AsSpan(0, n).ToArray());
        }

        Assert.Equal("bye", Encoding.ASCII.GetString(received.ToArray()));
        await server.DisposeAsync();
    }

    private static async Task<string> ReadAtLeast(PipeReader reader, int count)
    {
        while (true)
        {
            ReadResult result = await reader.ReadAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(10));
            if (result.Buffer.Length >= count || result.IsCompleted)
            {
                string text = Encoding.ASCII.GetString(result.Buffer.ToArray());
                reader.AdvanceTo(result.Buffer.End);
                return text;
            }

            reader.AdvanceTo(result.Buffer.Start, result.Buffer.End);
        }
    }
}
