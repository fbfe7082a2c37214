using Exchange.Core.Memory;

namespace Exchange.Fix.Session;

/// <summary>
/// Where each stored message's record starts in a <see cref="FileSessionStore"/>, by MsgSeqNum, in fixed chunks of
/// <see cref="ChunkEntries"/> offsets. The chunk of the next number, and the one the numbering reaches within
/// <see cref="PrepareAhead"/> of it, are made ready by <see cref="Prepare"/> at moments nothing waits on the store, so
/// storing a report neither copies the index (as a doubling array would, 8 MB at a million messages) nor allocates or
/// takes a page fault; <see cref="Set"/> allocates only if the owner never prepared. A jump in the numbering costs a
/// chunk, not an array up to it.
/// </summary>
/// <remarks>
/// A chunk is readied over several calls, like the store's file pages: one call allocates it (fresh memory, not yet
/// resident), each later one writes one of its pages, because every first write to a page is a fault (~15 µs on the VM
/// this was measured on) that an arriving order would wait for. Single-threaded like its store;
/// <see cref="NeedsPrepare"/> may be read without the store's lock as a hint.
/// </remarks>
internal sealed class RecordOffsetIndex
{
    /// <summary>16,384 offsets (128 KiB) per chunk.</summary>
    public const int ChunkEntries = 1 << ChunkShift;

    /// <summary>How far ahead of the next number its chunk is made ready: a quarter chunk of messages.</summary>
    public const int PrepareAhead = ChunkEntries / 4;

    /// <summary>Calls to <see cref="Prepare"/> that ready one chunk: the allocation, then one per page.</summary>
    public const int PrepareCallsPerChunk = 1 + (ChunkEntries / EntriesPerPage);

    private const int ChunkShift = 14;
    private const int EntriesPerPage = PageToucher.PageSize / sizeof(long);

    // Entry = record offset + 1; 0 = no message stored under that number.
    private long[]?[] _chunks = new long[]?[16];

    // A chunk being readied: allocated, its first _pendingPages pages written.
    private long[]? _pending;
    private int _pendingChunk;
    private int _pendingPages;

    /// <summary>Starts with the chunk of <paramref name="firstSeqNum"/> ready.</summary>
    public RecordOffsetIndex(int firstSeqNum = 1)
    {
        var entries = new long[ChunkEntries];
        PageToucher.Touch(entries);
        Install(ChunkOf(Math.Max(firstSeqNum, 0)), entries);
    }

    /// <summary>Whether <see cref="Prepare"/> has work: a chunk in progress, or the next number's or the look-ahead's missing.</summary>
    public bool NeedsPrepare(int nextSeqNum) => _pending is not null || ChunkToPrepare(nextSeqNum) >= 0;

    /// <summary>One step of readying a chunk (see the remarks); false when there was nothing to do.</summary>
    public bool Prepare(int nextSeqNum)
    {
        if (_pending is null)
        {
            int chunk = ChunkToPrepare(nextSeqNum);
            if (chunk < 0)
            {
                return false;
            }

            _pending = new long[ChunkEntries];
            _pendingChunk = chunk;
            _pendingPages = 0;
            return true;
        }

        _pending[_pendingPages * EntriesPerPage] = 0; // the page's first write: its fault, taken here
        if (++_pendingPages == ChunkEntries / EntriesPerPage)
        {
            Install(_pendingChunk, _pending);
        }

        return true;
    }

    public void Set(int seqNum, long recordOffset)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(seqNum);
        int chunk = ChunkOf(seqNum);
        if (IsMissing(chunk))
        {
            // Not prepared in time: a chunk in progress is taken as it is (its other pages fault as they are written).
            Install(chunk, _pending is not null && _pendingChunk == chunk ? _pending : new long[ChunkEntries]);
        }

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

    /// <summary>The next number's chunk if missing, else the look-ahead's if missing, else -1.</summary>
    private int ChunkToPrepare(int nextSeqNum)
    {
        int next = Math.Max(nextSeqNum, 0);
        int ahead = next > int.MaxValue - PrepareAhead ? int.MaxValue : next + PrepareAhead;
        return IsMissing(ChunkOf(next)) ? ChunkOf(next) : IsMissing(ChunkOf(ahead)) ? ChunkOf(ahead) : -1;
    }

    private bool IsMissing(int chunk)
    {
        long[]?[] chunks = _chunks; // one read: a hint reader may race a resize
        return chunk >= chunks.Length || chunks[chunk] is null;
    }

    private void Install(int chunk, long[] entries)
    {
        if (chunk >= _chunks.Length)
        {
            Array.Resize(ref _chunks, Math.Max(_chunks.Length * 2, chunk + 1));
        }

        _chunks[chunk] = entries;
        if (ReferenceEquals(entries, _pending))
        {
            _pending = null;
        }
    }
}
