using System.Buffers;

namespace Exchange.Fix.Gateway;

/// <summary>
/// A connection that accepts and forgets everything the gateway writes, into one reused buffer (so writing allocates
/// nothing): for driving a gateway without a socket, as the host's start-up warm-up and the benchmarks do.
/// </summary>
public sealed class DiscardingConnection(long id, string name) : IFixConnection
{
    private readonly ArrayBufferWriter<byte> _output = new(64 * 1024);

    public long Id => id;

    public string RemoteEndPoint => name;

    public IBufferWriter<byte> Output => _output;

    public Lock WriteLock { get; } = new();

    public bool CanWrite => true;

    public long Backlog => 0;

    public void Flush() => _output.ResetWrittenCount();

    public ValueTask CloseAsync(TimeSpan timeout) => ValueTask.CompletedTask;
}
