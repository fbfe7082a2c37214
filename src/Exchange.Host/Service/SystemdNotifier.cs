using System.Net.Sockets;
using System.Text;

namespace Exchange.Host.Service;

/// <summary>
/// The systemd notify protocol (sd_notify): one datagram of "KEY=VALUE" lines to the Unix socket named by
/// $NOTIFY_SOCKET. Written here because Microsoft.Extensions.Hosting.Systemd is not on the package mirror. Outside
/// systemd (no $NOTIFY_SOCKET) every call does nothing, so the same binary runs from a shell.
/// </summary>
public sealed class SystemdNotifier
{
    private readonly string? _socketPath;

    public SystemdNotifier()
        : this(Environment.GetEnvironmentVariable("NOTIFY_SOCKET"))
    {
    }

    public SystemdNotifier(string? socketPath)
    {
        // A leading '@' names a socket in Linux's abstract namespace, spelled with a NUL byte on the wire.
        _socketPath = string.IsNullOrEmpty(socketPath) ? null : socketPath[0] == '@' ? "\0" + socketPath[1..] : socketPath;
    }

    public bool IsEnabled => _socketPath is not null && OperatingSystem.IsLinux();

    /// <summary>Sends a state such as "READY=1" or "STOPPING=1"; returns false when not under systemd or the send failed.</summary>
    public bool Notify(string state)
    {
        if (!IsEnabled)
        {
            return false;
        }

        try
        {
            using var socket = new Socket(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
            socket.Connect(new UnixDomainSocketEndPoint(_socketPath!));
            socket.Send(Encoding.UTF8.GetBytes(state));
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
