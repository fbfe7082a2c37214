using System.Buffers;
using System.IO.Pipelines;
using System.Net.Sockets;
using Exchange.Fix.Gateway;

namespace Exchange.Host.Network;

/// <summary>
/// One accepted TCP connection as two pipes: <see cref="Input"/> reads the socket; <see cref="Output"/> is an in-memory
/// pipe that a pump task drains to the socket. Writers never touch the socket, so a slow client cannot block the
/// thread that encodes for it; instead <see cref="Backlog"/> grows and the owner decides when to cut the client off.
/// </summary>
/// <remarks>
/// Threading: one reader of <see cref="Input"/> (the connection's session task). <see cref="Output"/> may be written by
/// more than one thread (the session's admin messages, the sender's ExecutionReports), so writers hold
/// <see cref="WriteLock"/> from GetSpan to Flush.
/// </remarks>
public sealed class SocketConnection : IFixConnection, IAsyncDisposable
{
    private readonly Socket _socket;
    private readonly Pipe _output;
    private readonly Task _sendPump;
    private long _backlog;
    private Task? _closing;

    public SocketConnection(Socket socket, long id)
    {
        _socket = socket;
        Id = id;
        RemoteEndPoint = socket.RemoteEndPoint?.ToString() ?? "?";
        _socket.NoDelay = true;
        Input = PipeReader.Create(new NetworkStream(socket, ownsSocket: false), new StreamPipeReaderOptions(bufferSize: 16 * 1024, minimumReadSize: 4096));

        // No pause threshold: flushes never wait on the client. The backlog counter is the bound instead.
        _output = new Pipe(new PipeOptions(pauseWriterThreshold: 0, resumeWriterThreshold: 0, writerScheduler: PipeScheduler.Inline, readerScheduler: PipeScheduler.ThreadPool, useSynchronizationContext: false));
        _sendPump = Task.Run(PumpAsync);
    }

    public long Id { get; }

    public string RemoteEndPoint { get; }

    public PipeReader Input { get; }

    public PipeWriter Output => _output.Writer;

    IBufferWriter<byte> IFixConnection.Output => _output.Writer;

    /// <summary>Held by whoever writes to <see cref="Output"/>.</summary>
    public Lock WriteLock { get; } = new();

    /// <summary>Bytes flushed to <see cref="Output"/> but not yet accepted by the socket.</summary>
    public long Backlog => Volatile.Read(ref _backlog);

    /// <summary>Set once the socket has failed or been closed; writes after that are discarded by the pump.</summary>
    public bool IsClosed { get; private set; }

    /// <summary>False once closing began; writers check it under <see cref="WriteLock"/> before writing.</summary>
    public bool CanWrite { get; private set; } = true;

    /// <summary>Flushes what the caller wrote to <see cref="Output"/>; call under <see cref="WriteLock"/>.</summary>
    public void Flush()
    {
        long pending = Output.UnflushedBytes;
        Interlocked.Add(ref _backlog, pending);

        // With no pause threshold the flush completes synchronously; the pump is woken on the thread pool.
        ValueTask<FlushResult> flush = Output.FlushAsync();
        if (!flush.IsCompletedSuccessfully)
        {
            flush.AsTask().GetAwaiter().GetResult();
        }
    }

    private async Task PumpAsync()
    {
        PipeReader reader = _output.Reader;
        try
        {
            while (true)
            {
                ReadResult result = await reader.ReadAsync().ConfigureAwait(false);
                ReadOnlySequence<byte> buffer = result.Buffer;
                foreach (ReadOnlyMemory<byte> segment in buffer)
                {
                    if (!IsClosed)
                    {
                        await _socket.SendAsync(segment, SocketFlags.None).ConfigureAwait(false);
                    }
                }

                Interlocked.Add(ref _backlog, -buffer.Length);
                reader.AdvanceTo(buffer.End);
                if (result.IsCompleted)
                {
                    break;
                }
            }
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException)
        {
            // The peer went away; the session notices on its read side.
            IsClosed = true;
        }
        finally
        {
            await reader.CompleteAsync().ConfigureAwait(false);
        }
    }

    /// <summary>Sends what is queued (waiting at most <paramref name="timeout"/>) and closes the socket.</summary>
    /// <remarks>
    /// Idempotent: every call awaits the one close the first call started. (The gateway starts the close after a
    /// Logout without waiting; the owner's later dispose must still let the Logout reach the client before the socket
    /// goes away.)
    /// </remarks>
    public ValueTask CloseAsync(TimeSpan timeout)
    {
        lock (WriteLock)
        {
            if (_closing is null)
            {
                CanWrite = false;
                Output.Complete();
                _closing = FinishCloseAsync(timeout);
            }

            return new ValueTask(_closing);
        }
    }

    private async Task FinishCloseAsync(TimeSpan timeout)
    {
        await Task.WhenAny(_sendPump, Task.Delay(timeout)).ConfigureAwait(false);
        IsClosed = true;
        try
        {
            _socket.Shutdown(SocketShutdown.Both);
        }
        catch (SocketException)
        {
            // Already reset by the peer.
        }

        _socket.Close();
    }

    public async ValueTask DisposeAsync()
    {
        await CloseAsync(TimeSpan.FromSeconds(1)).ConfigureAwait(false);
        await Input.CompleteAsync().ConfigureAwait(false);
        _socket.Dispose();
    }
}
