using System.Runtime.InteropServices;

namespace Exchange.Fix.Session;

/// <summary>
/// Stored outbound messages in native memory: records appended into 1 MiB chunks, with an index by sequence number in
/// chunks of 65,536 entries. Chunks are never moved or copied; appending allocates a chunk when the current one is full;
/// lookups never allocate.
/// </summary>
/// <remarks>
/// <para>Why native memory: a store that keeps a whole session's messages in managed arrays gives the GC ever larger
/// objects, and doubling one array copied everything stored so far on the order path (tens of milliseconds once a
/// benchmark session held 100 MB). Here the GC never sees the messages.</para>
/// <para>Single-threaded (the session's lock). Freed by <see cref="Dispose"/> or, failing that, the finalizer.</para>
/// </remarks>
internal sealed unsafe class OutboundMessageLog : IDisposable
{
    private const int ChunkBytes = 1 << 20;
    private const int IndexShift = 16;
    private const int IndexChunkEntries = 1 << IndexShift;

    private nint[] _chunks = new nint[64]; // grows (a managed copy) only past 64 MiB of messages
    private int _chunkCount;
    private byte* _current;
    private int _currentUsed;
    private int _currentSize;
    private nint[] _indexChunks = new nint[64]; // Entry[IndexChunkEntries] each, zeroed; 0 = not allocated

    ~OutboundMessageLog() => Free();

    public void Append(int seq, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(seq, 1);
        int size = StoredMessageCodec.SizeOf(msgType, body);
        if (_current == null || _currentUsed + size > _currentSize)
        {
            NewChunk(Math.Max(ChunkBytes, size));
        }

        byte* record = _current + _currentUsed;
        StoredMessageCodec.Write(new Span<byte>(record, size), seq, msgType, sendingTimeNanos, body);
        _currentUsed += size;
        ref Entry entry = ref EntryFor(seq);
        entry.Record = record;
        entry.Length = size;
    }

    /// <remarks>The message's spans point into the log: valid until <see cref="Clear"/> or <see cref="Dispose"/>.</remarks>
    public bool TryGet(int seq, out StoredMessage message)
    {
        message = default;
        int chunk = seq >> IndexShift;
        if (seq < 1 || chunk >= _indexChunks.Length || _indexChunks[chunk] == 0)
        {
            return false;
        }

        Entry entry = ((Entry*)_indexChunks[chunk])[seq & (IndexChunkEntries - 1)];
        return entry.Record != null && StoredMessageCodec.TryRead(new ReadOnlySpan<byte>(entry.Record, entry.Length), out message);
    }

    /// <summary>Forgets every message (a sequence reset) and returns all but the first data chunk.</summary>
    public void Clear()
    {
        for (int i = 1; i < _chunkCount; i++)
        {
            NativeMemory.Free((void*)_chunks[i]);
            _chunks[i] = 0;
        }

        _chunkCount = Math.Min(_chunkCount, 1);
        _current = _chunkCount == 1 ? (byte*)_chunks[0] : null;
        _currentUsed = 0;
        foreach (nint index in _indexChunks)
        {
            if (index != 0)
            {
                NativeMemory.Clear((void*)index, (nuint)(IndexChunkEntries * sizeof(Entry)));
            }
        }
    }

    public void Dispose()
    {
        Free();
        GC.SuppressFinalize(this);
    }

    private void NewChunk(int size)
    {
        if (_chunkCount == _chunks.Length)
        {
            Array.Resize(ref _chunks, _chunks.Length * 2);
        }

        _current = (byte*)NativeMemory.Alloc((nuint)size);
        _chunks[_chunkCount++] = (nint)_current;
        _currentUsed = 0;
        _currentSize = size;
    }

    private ref Entry EntryFor(int seq)
    {
        int chunk = seq >> IndexShift;
        if (chunk >= _indexChunks.Length)
        {
            Array.Resize(ref _indexChunks, Math.Max(_indexChunks.Length * 2, chunk + 1));
        }

        if (_indexChunks[chunk] == 0)
        {
            _indexChunks[chunk] = (nint)NativeMemory.AllocZeroed((nuint)IndexChunkEntries, (nuint)sizeof(Entry));
        }

        return ref ((Entry*)_indexChunks[chunk])[seq & (IndexChunkEntries - 1)];
    }

    private void Free()
    {
        for (int i = 0; i < _chunkCount; i++)
        {
            NativeMemory.Free((void*)_chunks[i]);
        }

        foreach (nint index in _indexChunks)
        {
            NativeMemory.Free((void*)index);
        }

        _chunkCount = 0;
        _current = null;
        _indexChunks = new nint[_indexChunks.Length];
    }

    private struct Entry
    {
        public byte* Record;
        public int Length;
    }
}
