using System.Runtime.CompilerServices;
using System.Buffers;
using System.IO.Pipelines;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>
/// The session layer's view of one <see cref="IFixConnection"/>. Every call into a session runs as a "section" under
/// the gateway's per-session lock; the first message the session writes in a section takes the connection's
/// <see cref="IFixConnection.WriteLock"/> and checks <see cref="IFixConnection.CanWrite"/>, and
/// <see cref="EndSection"/> flushes once and releases it. Sections that write nothing (most inbound orders) never
/// touch the write lock. A session's <see cref="Disconnect"/> is deferred to the end of the section so the Logout
/// written just before it is flushed first.
/// </summary>
/// <remarks>
/// Threading: sections of one connection are serialised by the session lock (or, before logon, run only on the
/// connection's I/O task); <see cref="Close"/> may be called from any thread and is idempotent.
/// </remarks>
internal sealed class ConnectionTransport : ISessionTransport
{
    private readonly IFixConnection _connection;
    private readonly PipeReader? _input;
    private readonly GatewayServices _services;
    private ArrayBufferWriter<byte>? _discard;
    private bool _holdingWriteLock;
    private bool _writable;
    private int _written;
    private bool _disconnectPending;
    private int _closeRequested;

    public ConnectionTransport(IFixConnection connection, PipeReader? input, GatewayServices services)
    {
        _connection = connection;
        _input = input;
        _services = services;
    }

    public IFixConnection Connection => _connection;

    /// <summary>Set once the session released this connection (it called <see cref="Disconnect"/>): stop calling the session.</summary>
    public bool SessionReleased { get; private set; }

    public bool CloseRequested => Volatile.Read(ref _closeRequested) != 0;

    public DisconnectReason DisconnectReason { get; private set; }

    /// <summary>The connection's writer when it can be written, else a sink whose bytes are dropped (the session still
    /// advances its numbers and stores; the client recovers by resend after reconnecting).</summary>
    public IBufferWriter<byte> Output
    {
        get
        {
            if (!_holdingWriteLock)
            {
                _connection.WriteLock.Enter();
                _holdingWriteLock = true;
                _writable = _connection.CanWrite && !CloseRequested;
            }

            return _writable ? _connection.Output : _discard ??= new ArrayBufferWriter<byte>(16 * 1024);
        }
    }

    public void MessageWritten()
    {
        if (_writable)
        {
            _written++;
        }
        else
        {
            _discard?.ResetWrittenCount();
        }
    }

    public void Disconnect(DisconnectReason reason)
    {
        DisconnectReason = reason;
        SessionReleased = true;
        _disconnectPending = true;
    }

    /// <summary>Marks the session released by the gateway itself (it called OnTransportClosed).</summary>
    public void ReleaseSession() => SessionReleased = true;

    /// <summary>True between the section's first write and its end (<see cref="EndSection"/>).</summary>
    public bool IsWritingSection => _holdingWriteLock;

    /// <summary>Ends a section: one flush for everything written in it, then any disconnect the session asked for.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void EndSection()
    {
        // Most sections (an inbound order) wrote nothing and end nothing: two loads, no call.
        if (_holdingWriteLock || _disconnectPending)
        {
            EndWritingSection();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void EndWritingSection()
    {
        if (_holdingWriteLock)
        {
            try
            {
                if (_written > 0 && _writable && _connection.CanWrite)
                {
                    _connection.Flush();
                }
            }
            finally
            {
                _written = 0;
                _holdingWriteLock = false;
                _connection.WriteLock.Exit();
            }
        }

        if (_disconnectPending)
        {
            _disconnectPending = false;
            Close($"session disconnected: {DisconnectReason}");
        }
    }

    /// <summary>Starts closing the connection (never waits) and wakes the read loop so it ends.</summary>
    /// <remarks>Often called under the session's lock: the woken read loop does not end on this thread (the socket's
    /// cancelled read and the pipes complete on the thread pool; a polled connection's loop notices the close on its next
    /// pass), so the lock is not entered again here. A review found no place that re-enters it; keep it so, in case
    /// the lock is ever replaced by one that cannot be re-entered (docs/MEASUREMENTS.md, twenty-third session).</remarks>
    public void Close(string why)
    {
        if (Interlocked.Exchange(ref _closeRequested, 1) != 0)
        {
            return;
        }

        _services.Log.Info($"connection {_connection.Id} ({_connection.RemoteEndPoint}): closing, {why}");
        try
        {
            ValueTask closing = _connection.CloseAsync(_services.Options.CloseTimeout);
            if (!closing.IsCompletedSuccessfully)
            {
                _ = ObserveAsync(closing);
            }
        }
        catch (Exception ex) when (ex is IOException or ObjectDisposedException or InvalidOperationException)
        {
            _services.Log.Warn($"connection {_connection.Id}: close failed: {ex.Message}");
        }

        _input?.CancelPendingRead();
    }

    private async Task ObserveAsync(ValueTask closing)
    {
        try
        {
            await closing.ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is IOException or ObjectDisposedException or InvalidOperationException or OperationCanceledException)
        {
            _services.Log.Warn($"connection {_connection.Id}: close failed: {ex.Message}");
        }
    }
}
