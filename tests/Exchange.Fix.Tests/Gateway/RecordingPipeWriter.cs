using System.Buffers;
using System.IO.Pipelines;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>A PipeWriter over one growable array: flushed bytes stay readable for assertions; no allocation once sized.</summary>
internal sealed class RecordingPipeWriter : PipeWriter
{
    private byte[] _buffer = new byte[256 * 1024];
    private int _written;
    private int _flushed;

    public int FlushCount { get; private set; }

    public bool Completed { get; private set; }

    public ReadOnlySpan<byte> Flushed => _buffer.AsSpan(0, _flushed);

    public override long UnflushedBytes => _written - _flushed;

    public override bool CanGetUnflushedBytes => true;

    public void Clear()
    {
        _written = 0;
        _flushed = 0;
    }

    public override void Advance(int bytes) => _written += bytes;

    public override Memory<byte> GetMemory(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsMemory(_written);
    }

    public override Span<byte> GetSpan(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsSpan(_written);
    }

    public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default)
    {
        _flushed = _written;
        FlushCount++;
        return new ValueTask<FlushResult>(new FlushResult(false, Completed));
    }

    public override void CancelPendingFlush()
    {
    }

    public override void Complete(Exception? exception = null) => Completed = true;

    private void Ensure(int sizeHint)
    {
        if (Completed)
        {
            throw new InvalidOperationException("writer completed");
        }

        int need = _written + Math.Max(sizeHint, 1);
        if (need > _buffer.Length)
        {
            Array.Resize(ref _buffer, Math.Max(need, _buffer.Length * 2));
        }
    }
}
