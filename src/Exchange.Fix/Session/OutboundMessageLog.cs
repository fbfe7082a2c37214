namespace Exchange.Fix.Session;

/// <summary>
/// Stored outbound messages in one append-only byte buffer with an (offset, length) index by sequence number.
/// Appending allocates only when the buffer or index doubles; lookups never allocate.
/// </summary>
internal sealed class OutboundMessageLog
{
    private byte[] _data;
    private int _used;
    private long[] _index; // (offset << 32 | length) + presence bit; 0 = absent

    public OutboundMessageLog(int initialBytes, int initialSeqCapacity)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(initialBytes, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(initialSeqCapacity, 1);
        _data = new byte[initialBytes];
        _index = new long[initialSeqCapacity];
    }

    public void Append(int seq, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(seq, 1);
        int size = StoredMessageCodec.SizeOf(msgType, body);
        EnsureData(size);
        StoredMessageCodec.Write(_data.AsSpan(_used, size), seq, msgType, sendingTimeNanos, body);
        EnsureIndex(seq);
        _index[seq] = Pack(_used, size);
        _used += size;
    }

    public bool TryGet(int seq, out StoredMessage message)
    {
        message = default;
        if (seq < 1 || seq >= _index.Length || _index[seq] == 0)
        {
            return false;
        }

        long entry = _index[seq];
        int offset = (int)(entry >> 32);
        int length = (int)(entry & 0x7FFF_FFFF);
        return StoredMessageCodec.TryRead(_data.AsSpan(offset, length), out message);
    }

    public void Clear()
    {
        _used = 0;
        Array.Clear(_index);
    }

    private static long Pack(int offset, int length) => ((long)offset << 32) | (uint)length | 0x8000_0000L;

    private void EnsureData(int size)
    {
        if (_used + size <= _data.Length)
        {
            return;
        }

        long wanted = Math.Max((long)_data.Length * 2, (long)_used + size);
        if (wanted > Array.MaxLength)
        {
            throw new InvalidOperationException("outbound message log exceeds 2 GB; reset the session");
        }

        Array.Resize(ref _data, (int)wanted);
    }

    private void EnsureIndex(int seq)
    {
        if (seq < _index.Length)
        {
            return;
        }

        Array.Resize(ref _index, Math.Max(_index.Length * 2, seq + 1));
    }
}
