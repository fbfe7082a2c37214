using System.Buffers;

namespace Exchange.Fix.Gateway;

/// <summary>
/// The inbound side of one attached connection (<see cref="IFixGateway.Attach"/>), for hosts that read sockets
/// themselves instead of handing the gateway a <see cref="System.IO.Pipelines.PipeReader"/>.
/// </summary>
/// <remarks>Threading: one thread at a time per reader. Allocation: none per message in steady state.</remarks>
public interface IFixConnectionReader
{
    /// <summary>Set once the connection is being closed (Logout, a session rule, a slow consumer): stop reading it.</summary>
    bool CloseRequested { get; }

    /// <summary>Frames and handles every complete message in <paramref name="buffer"/>.</summary>
    /// <param name="buffer">Unconsumed bytes received so far.</param>
    /// <param name="consumed">The bytes before this position are done with; keep the rest for the next call.</param>
    /// <param name="examined">Everything before this position was looked at; call again only with more bytes.</param>
    void Process(in ReadOnlySequence<byte> buffer, out SequencePosition consumed, out SequencePosition examined);

    /// <summary>Frames and handles every complete message in a contiguous <paramref name="buffer"/>.</summary>
    /// <param name="buffer">Unconsumed bytes received so far, in one piece (a socket's receive buffer).</param>
    /// <returns>How many bytes at the start are done with; keep the rest and call again once more have arrived.</returns>
    int Process(ReadOnlySpan<byte> buffer);

    /// <summary>The connection ended (peer gone, read error or <see cref="CloseRequested"/>): releases its session.</summary>
    void Detach(string why);
}
