using System.Net;
using System.Net.Sockets;

namespace Exchange.Host.Network;

/// <summary>
/// Accepts TCP connections and hands each socket, with a connection id, to <paramref name="onAccepted"/> as its own
/// task: connections share the thread pool (or one polling thread), there is no thread per connection.
/// </summary>
public sealed class SocketListener(IPEndPoint endPoint, Func<Socket, long, Task> onAccepted) : IAsyncDisposable
{
    private readonly Socket _socket = new(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
    private readonly CancellationTokenSource _stop = new();
    private Task? _acceptLoop;
    private long _nextId;

    /// <summary>The bound address; with port 0 in configuration this carries the port the OS chose.</summary>
    public IPEndPoint LocalEndPoint => (IPEndPoint)_socket.LocalEndPoint!;

    public void Start()
    {
        _socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
        try
        {
            _socket.Bind(endPoint);
        }
        catch (SocketException exception)
        {
            throw new ListenFailedException(
                $"cannot listen on {endPoint}: {exception.Message} (set by Venue:Listen:Address and Venue:Listen:Port)", exception);
        }

        _socket.Listen(128);
        _acceptLoop = AcceptLoopAsync();
    }

    private async Task AcceptLoopAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket client;
            try
            {
                client = await _socket.AcceptAsync(_stop.Token).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                if (_stop.IsCancellationRequested)
                {
                    return;
                }

                continue;
            }

            long id = Interlocked.Increment(ref _nextId);
            _ = Task.Run(() => onAccepted(client, id));
        }
    }

    /// <summary>Stops accepting; connections already handed out are their owners' to close.</summary>
    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        _socket.Close();
        if (_acceptLoop is not null)
        {
            await _acceptLoop.ConfigureAwait(false);
        }

        _stop.Dispose();
    }
}
