using System.Net;
using System.Net.Sockets;

namespace Exchange.Host.Tests.Network;

/// <summary>A connected TCP pair over loopback: <see cref="Client"/> and the <see cref="Server"/> side it was accepted as.</summary>
internal sealed class LoopbackSocketPair : IDisposable
{
    public LoopbackSocketPair()
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1);
        Client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        Client.Connect(listener.LocalEndPoint!);
        Server = listener.Accept();
    }

    public Socket Client { get; }

    public Socket Server { get; }

    public void Dispose()
    {
        Client.Dispose();
        Server.Dispose();
    }
}
