using System.Buffers;

namespace Exchange.Fix.Gateway;

/// <summary>
/// The gateway's view of one client connection. The host implements it over a socket; tests over in-memory pipes.
/// </summary>
/// <remarks>
/// Threading: <see cref="Output"/> is written by more than one thread (the connection's I/O task for session messages,
/// the host's sender and market-data threads for application messages); every writer holds <see cref="WriteLock"/>
/// from the first GetSpan to <see cref="Flush"/>, and checks <see cref="CanWrite"/> under it first.
/// </remarks>
public interface IFixConnection
{
    long Id { get; }

    string RemoteEndPoint { get; }

    IBufferWriter<byte> Output { get; }

    Lock WriteLock { get; }

    /// <summary>False once closing began; nothing may be written after that.</summary>
    bool CanWrite { get; }

    /// <summary>Bytes flushed but not yet taken by the client: the measure of a slow consumer.</summary>
    long Backlog { get; }

    /// <summary>Makes what was written to <see cref="Output"/> visible to the sending side; never waits for the client.</summary>
    void Flush();

    /// <summary>Sends what is queued (waiting at most <paramref name="timeout"/>) and closes.</summary>
    ValueTask CloseAsync(TimeSpan timeout);
}
