using System.Buffers;
using System.IO.Pipelines;
using Exchange.Fix.Gateway;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>An <see cref="IFixConnection"/> whose output is recorded; closing completes the optional input pipe so a read loop ends.</summary>
internal sealed class FakeConnection : IFixConnection
{
    private readonly RecordingPipeWriter _output = new();
    private readonly PipeWriter? _inputWriter;

    public FakeConnection(PipeWriter? inputWriter = null)
    {
        _inputWriter = inputWriter;
    }

    public long Id { get; } = 1;

    public string RemoteEndPoint => "test";

    public IBufferWriter<byte> Output => _output;

    public RecordingPipeWriter Recorded => _output;

    public Lock WriteLock { get; } = new();

    public bool CanWrite { get; private set; } = true;

    public long Backlog { get; set; }

    public int CloseCount { get; private set; }

    /// <summary>Makes <see cref="Flush"/> throw, as a socket's send can.</summary>
    public bool FailFlush { get; set; }

    public void Flush()
    {
        Assert.True(WriteLock.IsHeldByCurrentThread, "Flush without the write lock");
        if (FailFlush)
        {
            throw new IOException("flush failed (test)");
        }

        _ = _output.FlushAsync();
    }

    public ValueTask CloseAsync(TimeSpan timeout)
    {
        lock (WriteLock)
        {
            CloseCount++;
            CanWrite = false;
        }

        _inputWriter?.Complete();
        return ValueTask.CompletedTask;
    }
}
