namespace Exchange.Fix.Session;

/// <summary>
/// Where each stored message's record starts in a <see cref="FileSessionStore"/>, by MsgSeqNum, in fixed chunks of
/// <see cref="ChunkEntries"/> offsets. A chunk is allocated when the numbering nears it, by <see cref="Prepare"/> at a
/// moment nothing waits on the store, so storing a report neither copies the index (as a doubling array would, ~8 MB
/// at a million messages) nor allocates or takes a page fault; <see cref="Set"/> allocates only if the owner never
/// prepared. A jump in the numbering costs one chunk, not an array up to it.
/// </summary>
/// <remarks>Single-threaded like its store; <see cref="NeedsPrepare"/> may be read without the store's lock as a hint.</remarks>
internal sealed class RecordOffsetIndex
{
    /// <summary>16,384 offsets (128 KiB) per chunk.</summary>
    public const int ChunkEntries = 1 << ChunkShift;

    /// <summary>How far ahead of the next number its chunk is made ready: a quarter chunk of messages.</summary>
    public const int PrepareAhead = ChunkEntries / 4;

    private const int ChunkShift = 14;

    /// <summary>Offsets are written to fresh chunk memory one per page (4 KiB of longs) so the pages are resident.</summary>
    private const int EntriesPerPage = 4096 / sizeof(long);

    // Entry = record offset + 1; 0 = no message stored under that number.
    private long[]?[] _chunks = new long[]?[16];

    /// <summary>Starts with the chunk of <paramref name="firstSeqNum"/> ready.</summary>
    public RecordOffsetIndex(int firstSeqNum = 1)
    {
        EnsureChunk(ChunkOf(Math.Max(firstSeqNum, 0)));
    }

    /// <summary>Whether the chunk the numbering reaches within <see cref="PrepareAhead"/> of <paramref name="nextSeqNum"/> is missing.</summary>
    public bool NeedsPrepare(int nextSeqNum)
    {
        int chunk = ChunkOf(Ahead(nextSeqNum));
        long[]?[] chunks = _chunks;
        return chunk >= chunks.Length || chunks[chunk] is null;
    }

    /// <summary>Allocates (and makes resident) that chunk; false when it was there already.</summary>
    public bool Prepare(int nextSeqNum) => EnsureChunk(ChunkOf(Ahead(nextSeqNum)));

    public void Set(int seqNum, long recordOffset)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(seqNum);
        int chunk = ChunkOf(seqNum);
        EnsureChunk(chunk);
        _chunks[chunk]![seqNum & (ChunkEntries - 1)] = recordOffset + 1;
    }

    public bool TryGet(int seqNum, out long recordOffset)
    {
        recordOffset = 0;
        int chunk = ChunkOf(seqNum);
        if (seqNum < 0 || chunk >= _chunks.Length || _chunks[chunk] is not long[] entries)
        {
            return false;
        }

        long entry = entries[seqNum & (ChunkEntries - 1)];
        recordOffset = entry - 1;
        return entry != 0;
    }

    private static int ChunkOf(int seqNum) => seqNum >> ChunkShift;

    private static int Ahead(int nextSeqNum) => nextSeqNum > int.MaxValue - PrepareAhead ? int.MaxValue : Math.Max(nextSeqNum, 0) + PrepareAhead;

    private bool EnsureChunk(int chunk)
    {
        if (chunk >= _chunks.Length)
        {
            Array.Resize(ref _chunks, Math.Max(_chunks.Length * 2, chunk + 1));
        }

        if (_chunks[chunk] is not null)
        {
            return false;
        }

        var entries = new long[ChunkEntries];
        for (int i = 0; i < entries.Length; i += EntriesPerPage)
        {
            // Fresh memory may be mapped lazily: writing each page once takes its fault here rather than on a store.
            entries[i] = 0;
        }

        _chunks[chunk] = entries;
        return true;
    }
}
