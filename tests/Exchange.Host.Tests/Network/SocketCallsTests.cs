using System.Net.Sockets;
using Exchange.Host.Network;
using Xunit;

namespace Exchange.Host.Tests.Network;

/// <summary>
/// <see cref="SocketCalls"/> against the <see cref="Socket"/> methods it stands in for, on a non-blocking loopback pair:
/// the same counts and the same SocketError for nothing to read, data, a full send buffer, a peer that closed or
/// reset, and a socket disposed underneath.
/// </summary>
public sealed class SocketCallsTests : IDisposable
{
    private readonly LoopbackSocketPair _pair = new();

    public SocketCallsTests() => Server.Blocking = false;

    private Socket Client => _pair.Client;

    private Socket Server => _pair.Server;

    public void Dispose() => _pair.Dispose();

    [Fact]
    public void Nothing_to_read_is_WouldBlock_and_data_is_read_whole()
    {
        byte[] buffer = new byte[64];
        Assert.Equal(0, SocketCalls.Receive(Server, buffer, out SocketError error));
        Assert.Equal(SocketError.WouldBlock, error);

        Client.Send("hello"u8);
        int read = ReceiveUntilData(buffer, out error);
        Assert.Equal(SocketError.Success, error);
        Assert.Equal("hello", System.Text.Encoding.ASCII.GetString(buffer, 0, read));
    }

    [Fact]
    public void Sends_until_the_socket_buffer_is_full_then_WouldBlock_and_everything_arrives_in_order()
    {
        byte[] chunk = Enumerable.Range(0, 64 * 1024).Select(i => (byte)i).ToArray();
        long sent = 0;
        SocketError error = SocketError.Success;
        for (int i = 0; i < 10_000 && error != SocketError.WouldBlock; i++)
        {
            int n = SocketCalls.Send(Server, chunk, out error);
            Assert.True(error is SocketError.Success or SocketError.WouldBlock, error.ToString());
            sent += n;
        }

        Assert.Equal(SocketError.WouldBlock, error);
        byte[] received = new byte[sent];
        int at = 0;
        while (at < sent)
        {
            at += Client.Receive(received, at, (int)(sent - at), SocketFlags.None);
        }

        for (int i = 0; i < sent; i++)
        {
            Assert.Equal((byte)(i % chunk.Length), received[i]);
        }
    }

    [Fact]
    public void A_peer_that_closed_reads_as_zero_with_Success()
    {
        Client.Shutdown(SocketShutdown.Both);
        byte[] buffer = new byte[8];
        int read = ReceiveUntilData(buffer, out SocketError error);
        Assert.Equal(0, read);
        Assert.Equal(SocketError.Success, error);
    }

    [Fact]
    public void A_peer_that_reset_reads_as_an_error()
    {
        Client.LingerState = new LingerOption(true, 0); // close with RST
        Client.Close();
        byte[] buffer = new byte[8];
        ReceiveUntilData(buffer, out SocketError error);
        Assert.Equal(SocketError.ConnectionReset, error);
    }

    [Fact]
    public void Sending_to_a_peer_that_is_gone_reports_a_reset_or_broken_pipe_not_an_unknown_error()
    {
        Client.LingerState = new LingerOption(true, 0);
        Client.Close();
        SocketError error = SocketError.Success;
        DateTime deadline = DateTime.UtcNow.AddSeconds(10);
        while (error is SocketError.Success or SocketError.WouldBlock && DateTime.UtcNow < deadline)
        {
            SocketCalls.Send(Server, new byte[64], out error);
            Thread.Sleep(1);
        }

        Assert.True(error is SocketError.ConnectionReset or SocketError.Shutdown, error.ToString());
    }

    [Fact]
    public void A_disposed_socket_throws_as_the_Socket_methods_do()
    {
        Server.Dispose();
        Assert.Throws<ObjectDisposedException>(() => SocketCalls.Receive(Server, new byte[8], out _));
        Assert.Throws<ObjectDisposedException>(() => SocketCalls.Send(Server, new byte[8], out _));
    }

    /// <summary>Reads until something other than WouldBlock comes back (data, the end, or an error).</summary>
    private int ReceiveUntilData(byte[] buffer, out SocketError error)
    {
        DateTime deadline = DateTime.UtcNow.AddSeconds(10);
        while (true)
        {
            int read = SocketCalls.Receive(Server, buffer, out error);
            if (error != SocketError.WouldBlock || DateTime.UtcNow > deadline)
            {
                return read;
            }

            Thread.Sleep(1);
        }
    }
}
