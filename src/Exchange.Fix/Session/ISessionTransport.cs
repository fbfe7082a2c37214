using System.Buffers;

namespace Exchange.Fix.Session;

/// <summary>
/// The connection a <see cref="FixSession"/> is bound to. The session encodes each outbound message straight into
/// <see cref="Output"/> (for a socket, the connection's PipeWriter) and then calls <see cref="MessageWritten"/>;
/// when to flush is the transport's policy. Called only from the thread that drives the session.
/// </summary>
public interface ISessionTransport
{
    IBufferWriter<byte> Output { get; }

    /// <summary>One complete message has been written to <see cref="Output"/>.</summary>
    void MessageWritten();

    /// <summary>Close the connection. The session has already unbound itself and will not write again.</summary>
    void Disconnect(DisconnectReason reason);
}
