using System.Buffers;

namespace Exchange.Host.Network;

/// <summary>
/// A connection's outbound bytes: written through <see cref="IBufferWriter{T}"/>, made sendable by
/// <see cref="Commit"/>, taken off the front by <see cref="Sent"/>. One array, compacted in place; it doubles only
/// when the bytes waiting for the socket do not fit.
/// </summary>
/// <remarks>Not thread-safe: the owning connection serialises every call under its write lock.</remarks>
internal sealed class SendBuffer : IBufferWriter<byte>
{
    private byte[] _buffer;
    private int _sentUpTo;
    private int _committed;
    private int _written;

    public SendBuffer(int initialCapacity) => _buffer = new byte[initialCapacity];

    /// <summary>Committed bytes not yet sent.</summary>
    public int Pending => _committed - _sentUpTo;

    /// <summary>The committed bytes not yet sent, in order.</summary>
    public ReadOnlySpan<byte> PendingSpan => _buffer.AsSpan(_sentUpTo, _committed - _sentUpTo);

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count > _buffer.Length - _written)
        {
            throw new InvalidOperationException("Advanced past the span handed out.");
        }

        _written += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Reserve(sizeHint);
        return _buffer.AsMemory(_written);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Reserve(sizeHint);
        return _buffer.AsSpan(_written);
    }

    /// <summary>Makes everything written so far sendable; returns <see cref="Pending"/>.</summary>
    public int Commit()
    {
        _committed = _written;
        return Pending;
    }

    /// <summary>The socket took <paramref name="count"/> bytes from the front of <see cref="PendingSpan"/>.</summary>
    public void Sent(int count)
    {
        _sentUpTo += count;
        if (_sentUpTo == _written)
        {
            _sentUpTo = 0;
            _committed = 0;
            _written = 0;
        }
    }

    /// <summary>Drops everything (the peer is gone).</summary>
    public void Clear()
    {
        _sentUpTo = 0;
        _committed = 0;
        _written = 0;
    }

    private void Reserve(int sizeHint)
    {
        int needed = Math.Max(sizeHint, 1);
        if (_buffer.Length - _written >= needed)
        {
            return;
        }

        int live = _written - _sentUpTo;
        if (_sentUpTo > 0 && _buffer.Length - live >= needed)
        {
            Buffer.BlockCopy(_buffer, _sentUpTo, _buffer, 0, live);
        }
        else
        {
            byte[] larger = new byte[Math.Max(_buffer.Length * 2, live + needed)];
            Buffer.BlockCopy(_buffer, _sentUpTo, larger, 0, live);
            _buffer = larger;
        }

        _committed -= _sentUpTo;
        _written = live;
        _sentUpTo = 0;
    }
}
