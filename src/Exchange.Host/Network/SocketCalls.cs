using System.Net.Sockets;
using System.Runtime.InteropServices;

// The load client compiles this file as its own copy, in its own namespace (tests see both assemblies).
#if LOAD_CLIENT
namespace Exchange.LoadClient.Session;
#else
namespace Exchange.Host.Network;
#endif

/// <summary>
/// Receive and send for threads that poll non-blocking sockets: on Linux, libc's <c>recv</c> and <c>send</c> on the
/// socket's handle; for a blocking socket or on another system, the <see cref="Socket"/> methods (which emulate a
/// blocking socket's timeouts over a descriptor the runtime may have made non-blocking). Same counts as
/// <see cref="Socket.Receive(Span{byte}, SocketFlags, out SocketError)"/> and its Send twin; an interrupted call is
/// made again, as the Socket methods do, and the errors a caller can act on map to the same
/// <see cref="SocketError"/> (WouldBlock, ConnectionReset, Shutdown for a broken pipe, NotConnected, TimedOut,
/// ConnectionAborted); any other is <see cref="SocketError.SocketError"/>.
/// </summary>
/// <remarks>
/// <para>Why: on this project's VM a <see cref="Socket.Receive(Span{byte}, SocketFlags, out SocketError)"/> that finds
/// nothing took ~1,440 ns against ~1,180 ns for <c>recv</c> itself (its managed layers and System.Native's wrapper),
/// and a synchronous round trip makes four such calls plus the polling reads between them: about a microsecond of a
/// ~14 µs round trip. A C loopback ping-pong and the same loop in .NET with these calls measure alike.</para>
/// <para>The handle is marshalled as a <see cref="SafeHandle"/> (a reference taken for the call), so a socket another
/// thread disposes is never read or written through a descriptor number the system has since given to another socket:
/// the call throws <see cref="ObjectDisposedException"/>, as the Socket methods do.</para>
/// <para>Bytes moved this way do not count in System.Net.Sockets' own event counters (bytes-received, bytes-sent); the
/// venue's metrics do not use them.</para>
/// <para>Shared source: the load client compiles this file too (as <c>Exchange.LoadClient.Session.SocketCalls</c>), so
/// both ends of a measurement make the same calls.</para>
/// </remarks>
internal static partial class SocketCalls
{
    // Linux errno values.
    private const int Interrupted = 4; // EINTR
    private const int WouldBlock = 11; // EAGAIN, which is also EWOULDBLOCK
    private const int BrokenPipe = 32; // EPIPE
    private const int ConnectionAborted = 103; // ECONNABORTED
    private const int ConnectionReset = 104; // ECONNRESET
    private const int NotConnected = 107; // ENOTCONN
    private const int TimedOut = 110; // ETIMEDOUT

    private const int NoSignal = 0x4000; // MSG_NOSIGNAL: a closed peer is an error result, not SIGPIPE

    public static int Receive(Socket socket, Span<byte> buffer, out SocketError error)
    {
        if (!OperatingSystem.IsLinux() || socket.Blocking)
        {
            return socket.Receive(buffer, SocketFlags.None, out error);
        }

        nint read;
        do
        {
            read = Recv(socket.SafeHandle, ref MemoryMarshal.GetReference(buffer), buffer.Length, 0);
        }
        while (read < 0 && Marshal.GetLastPInvokeError() == Interrupted);

        return Result(read, out error);
    }

    public static int Send(Socket socket, ReadOnlySpan<byte> buffer, out SocketError error)
    {
        if (!OperatingSystem.IsLinux() || socket.Blocking)
        {
            return socket.Send(buffer, SocketFlags.None, out error);
        }

        nint sent;
        do
        {
            sent = SendCall(socket.SafeHandle, in MemoryMarshal.GetReference(buffer), buffer.Length, NoSignal);
        }
        while (sent < 0 && Marshal.GetLastPInvokeError() == Interrupted);

        return Result(sent, out error);
    }

    private static int Result(nint count, out SocketError error)
    {
        if (count >= 0)
        {
            error = SocketError.Success;
            return (int)count;
        }

        error = Marshal.GetLastPInvokeError() switch
        {
            WouldBlock => SocketError.WouldBlock, // nothing now: the caller polls again
            ConnectionReset => SocketError.ConnectionReset,
            BrokenPipe => SocketError.Shutdown,
            NotConnected => SocketError.NotConnected,
            TimedOut => SocketError.TimedOut,
            ConnectionAborted => SocketError.ConnectionAborted,
            _ => SocketError.SocketError,
        };
        return 0;
    }

    [LibraryImport("libc", EntryPoint = "recv", SetLastError = true)]
    private static partial nint Recv(SafeHandle socket, ref byte buffer, nint length, int flags);

    [LibraryImport("libc", EntryPoint = "send", SetLastError = true)]
    private static partial nint SendCall(SafeHandle socket, in byte buffer, nint length, int flags);
}
