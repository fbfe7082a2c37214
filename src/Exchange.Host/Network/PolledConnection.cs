using System.Buffers;
using System.Net.Sockets;
using Exchange.Fix.Gateway;

namespace Exchange.Host.Network;

/// <summary>
/// One accepted TCP connection driven by the venue's polling thread (<c>Pipeline:Mode=Inline</c>): the socket is
/// non-blocking, the poller reads it into a reusable buffer and sends what was written to <see cref="Output"/> at the
/// end of each pass. No task, no pipe, no thread-pool hop on either side.
/// </summary>
/// <remarks>
/// <para>Threading: <see cref="Receive"/>, <see cref="Received"/> and <see cref="Consume"/> only on the polling thread.
/// <see cref="Output"/> is written by the poller (ExecutionReports, session replies) and by other threads (session
/// timers, market data, shutdown), each holding <see cref="WriteLock"/> from the first GetSpan to <see cref="Flush"/>.
/// A flush on the polling thread only marks the bytes pending, so one pass sends a whole batch of reports in one
/// system call (<see cref="SendPending"/>); a flush on any other thread sends at once, because nothing else would.</para>
/// <para>Allocation: none per message. The output buffer grows (doubling) only while a client lags; the gateway logs a
/// client out once <see cref="Backlog"/> passes its bound, so the growth is bounded by configuration.</para>
/// </remarks>
public sealed class PolledConnection : IFixConnection, IDisposable
{
    private readonly Socket _socket;
    private readonly int _pollerThreadId;
    private readonly SendBuffer _output = new(64 * 1024);
    private byte[] _receive;
    private int _receiveStart;
    private int _receiveEnd;
    private long _backlog;
    private Task? _closing;
    private int _disposed;
    private volatile bool _closed;

    /// <param name="socket">A connected socket; this connection owns it from now on.</param>
    /// <param name="id">Connection id for logs.</param>
    /// <param name="pollerThreadId">Managed id of the polling thread (flushes there are deferred to the end of the pass).</param>
    /// <param name="receiveBufferSize">At least twice the largest inbound message, so a whole message always fits.</param>
    public PolledConnection(Socket socket, long id, int pollerThreadId, int receiveBufferSize)
    {
        ArgumentNullException.ThrowIfNull(socket);
        _socket = socket;
        _pollerThreadId = pollerThreadId;
        _receive = new byte[receiveBufferSize];
        Id = id;
        RemoteEndPoint = socket.RemoteEndPoint?.ToString() ?? "?";
        socket.NoDelay = true;
        socket.Blocking = false;
    }

    public long Id { get; }

    public string RemoteEndPoint { get; }

    public IBufferWriter<byte> Output => _output;

    public Lock WriteLock { get; } = new();

    public bool CanWrite { get; private set; } = true;

    /// <summary>Bytes flushed but not yet taken by the socket.</summary>
    public long Backlog => Volatile.Read(ref _backlog);

    /// <summary>Set once the socket failed, the peer closed it or it was closed here.</summary>
    public bool IsClosed
    {
        get => _closed;
        private set => _closed = value;
    }

    /// <summary>The unconsumed received bytes (valid until the next <see cref="Receive"/>).</summary>
    public ReadOnlySpan<byte> Received => _receive.AsSpan(_receiveStart, _receiveEnd - _receiveStart);

    /// <summary>Poller: reads what the socket has without waiting.</summary>
    public ReceiveStatus Receive()
    {
        if (IsClosed)
        {
            return ReceiveStatus.Closed;
        }

        if (_receiveEnd == _receive.Length)
        {
            // Keep the partial message and make room after it; the buffer holds at least two messages.
            int pending = _receiveEnd - _receiveStart;
            Buffer.BlockCopy(_receive, _receiveStart, _receive, 0, pending);
            _receiveStart = 0;
            _receiveEnd = pending;
        }

        int read;
        SocketError error;
        try
        {
            read = SocketCalls.Receive(_socket, _receive.AsSpan(_receiveEnd), out error);
        }
        catch (ObjectDisposedException)
        {
            // Closed by another thread (a Logout's close) between the poller's checks.
            IsClosed = true;
            return ReceiveStatus.Closed;
        }

        if (error == SocketError.WouldBlock)
        {
            return ReceiveStatus.NothingNew;
        }

        if (error != SocketError.Success || read == 0)
        {
            IsClosed = true;
            return ReceiveStatus.Closed;
        }

        _receiveEnd += read;
        return ReceiveStatus.Received;
    }

    /// <summary>Poller: drops the first <paramref name="consumed"/> bytes of <see cref="Received"/>.</summary>
    public void Consume(int consumed)
    {
        _receiveStart += consumed;
        if (_receiveStart == _receiveEnd)
        {
            _receiveStart = 0;
            _receiveEnd = 0;
        }
    }

    /// <summary>Call under <see cref="WriteLock"/>: makes what was written sendable; sends at once off the polling thread.</summary>
    public void Flush()
    {
        Volatile.Write(ref _backlog, _output.Commit());
        if (Environment.CurrentManagedThreadId != _pollerThreadId)
        {
            SendLocked();
        }
    }

    /// <summary>Poller, end of pass: sends what is pending, as far as the socket takes it without waiting.</summary>
    public void SendPending()
    {
        if (Volatile.Read(ref _backlog) == 0)
        {
            return;
        }

        lock (WriteLock)
        {
            SendLocked();
        }
    }

    /// <summary>Stops writes, gives queued bytes up to <paramref name="timeout"/> to leave, then closes the socket.</summary>
    /// <remarks>Idempotent: every call awaits the close the first call started (see <see cref="SocketConnection.CloseAsync"/>).</remarks>
    public ValueTask CloseAsync(TimeSpan timeout)
    {
        lock (WriteLock)
        {
            if (_closing is null)
            {
                CanWrite = false;
                _closing = FinishCloseAsync(timeout);
            }

            return new ValueTask(_closing);
        }
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            IsClosed = true;
            _socket.Dispose();
        }
    }

    private async Task FinishCloseAsync(TimeSpan timeout)
    {
        long deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        while (Backlog > 0 && !IsClosed && Environment.TickCount64 < deadline)
        {
            lock (WriteLock)
            {
                SendLocked();
            }

            if (Backlog > 0)
            {
                await Task.Delay(1).ConfigureAwait(false);
            }
        }

        try
        {
            _socket.Shutdown(SocketShutdown.Both);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
            // Already reset by the peer, or disposed.
        }

        Dispose();
    }

    private void SendLocked()
    {
        while (_output.Pending > 0 && !IsClosed)
        {
            int sent;
            SocketError error;
            try
            {
                sent = SocketCalls.Send(_socket, _output.PendingSpan, out error);
            }
            catch (ObjectDisposedException)
            {
                IsClosed = true;
                break;
            }

            if (error == SocketError.WouldBlock)
            {
                break;
            }

            if (error != SocketError.Success)
            {
                // The peer went away; the poller notices on its read side. What is queued can never be sent.
                IsClosed = true;
                _output.Clear();
                break;
            }

            _output.Sent(sent);
        }

        Volatile.Write(ref _backlog, _output.Pending);
    }
}
