using System.Buffers.Binary;
using Exchange.Core.Storage;

namespace Exchange.Fix.Session;

/// <summary>
/// A durable <see cref="ISessionStore"/>: one append-only file of records, each [int32 payloadLength][uint32 CRC-32 of
/// payload][payload], payload = [kind][data]. Kinds: next sender seq, next target seq, stored outbound message (which
/// also sets the next sender seq), stored report (a message with the int64 event id that becomes
/// <see cref="LastEventId"/>), last event id alone, the queued forms of message and report (stored while no client
/// was logged on), and delivered (an int32 range of numbers no longer queued). Opening replays the records; the first
/// record that is short, oversized, of an unknown kind or fails its CRC ends the replay and the file is truncated
/// there, so a record torn by a crash is dropped and later appends never follow garbage.
/// </summary>
/// <remarks>
/// <para>Records are written straight into a memory map of the file: a record is in the OS page cache (safe from a
/// process crash) as soon as the call returns, for the cost of a copy rather than a system call per record, which on
/// the order path is the difference between a few and a few tens of microseconds. Fsyncs follow the
/// <see cref="FsyncPolicy"/>. The file is extended (sparsely) a chunk ahead of the records; the zero-filled rest reads
/// as the end on replay, and <see cref="Dispose"/> trims it.</para>
/// <para>Resends read stored messages from the map; only an index of record offsets is kept in memory. The file grows
/// with the session and is replaced on <see cref="Reset"/> (ResetSeqNumFlag logon) by a file holding the last event id
/// and the queued messages, written beside it and renamed over it; there is no other compaction. A build from before
/// a record kind existed stops reading at the first such record (and truncates there): do not run an older build on a
/// newer store.
/// Single-threaded. Allocation: none per record (a new mapping object when the file grows by a chunk, and a 128 KiB
/// chunk of the offset index every 16,384 sequence numbers, ahead of need when the owner calls
/// <see cref="PrepareNextRecord"/>).</para>
/// </remarks>
public sealed unsafe class FileSessionStore : ISessionStore
{
    private const int HeaderSize = 8;
    private const int MaxPayload = 16 * 1024 * 1024;
    private const byte KindSenderSeq = 1;
    private const byte KindTargetSeq = 2;
    private const byte KindMessage = 3;
    private const byte KindReport = 4;
    private const byte KindLastEventId = 5;
    private const byte KindQueuedMessage = 6;
    private const byte KindQueuedReport = 7;
    private const byte KindDelivered = 8;
    private const int EventIdSize = 8;

    private readonly string _path;
    private readonly FsyncPolicy _policy;
    private readonly int _batchSize;
    private readonly long _mapChunkBytes;
    private readonly SeqNumRanges _queued = new();
    private AppendMappedFile _file;
    private long _fileLength; // end of the last record: where the next one goes
    private int _unsyncedRecords;
    private RecordOffsetIndex _offsets = new();
    private bool _disposed;

    // Set when a reset failed after closing the file before it (see Reset): the file this object had is gone, so every
    // later use throws until a restart reopens whatever the folder holds.
    private string? _unusable;

    /// <param name="path">The store file; created with its folder when missing.</param>
    /// <param name="policy">When records are fsynced (every policy hands each record to the OS at once).</param>
    /// <param name="batchSize">With <see cref="FsyncPolicy.Batch"/>: records per fsync.</param>
    /// <param name="mapChunkBytes">How far ahead of the records the file is extended and mapped at a time.</param>
    public FileSessionStore(string path, FsyncPolicy policy = FsyncPolicy.Always, int batchSize = 64, long mapChunkBytes = 1024 * 1024)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(mapChunkBytes, 4096);
        _path = path;
        _policy = policy;
        _batchSize = batchSize;
        _mapChunkBytes = mapChunkBytes;
        string? directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (directory is not null)
        {
            Directory.CreateDirectory(directory);
        }

        // A reset the process did not live to rename into place: the store itself is still the one before the reset,
        // whose Logon reply was never sent.
        File.Delete(ResetPath(path));

        // bufferSize 0: no FileStream buffering; the replay reads positionally, appends go through the map (which
        // also truncates whatever follows the last good record).
        bool created = !File.Exists(path);
        var file = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0);
        try
        {
            Load(file);
            _file = new AppendMappedFile(file, _fileLength, mapChunkBytes);
            if (created && policy != FsyncPolicy.Never)
            {
                // The new file's name must outlive a power loss as its records do (DirectorySync).
                DirectorySync.SyncParentOf(path);
            }
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    public int NextSenderSeqNum { get; private set; } = 1;

    public int NextTargetSeqNum { get; private set; } = 1;

    /// <remarks>Unknown for a new file, or one whose records never carried an event id.</remarks>
    public long LastEventId { get; private set; } = ISessionStore.UnknownEventId;

    public void SetNextSenderSeqNum(int value)
    {
        NextSenderSeqNum = value;
        AppendSeq(KindSenderSeq, value);
    }

    public void SetNextTargetSeqNum(int value)
    {
        NextTargetSeqNum = value;
        AppendSeq(KindTargetSeq, value);
    }

    public void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body, long eventId = 0, bool queued = false)
    {
        AppendMessage(msgSeqNum, msgType, sendingTimeNanos, body, eventId, queued);
        if (eventId > 0)
        {
            LastEventId = eventId;
        }

        if (queued)
        {
            _queued.Add(msgSeqNum);
        }
    }

    public void SetLastEventId(long eventId)
    {
        LastEventId = eventId;
        Span<byte> payload = BeginRecord(1 + EventIdSize);
        payload[0] = KindLastEventId;
        BinaryPrimitives.WriteInt64LittleEndian(payload[1..], eventId);
        EndRecord(1 + EventIdSize);
    }

    /// <remarks>The message's spans point into the map: valid until the next call that writes to this store.</remarks>
    public bool TryGetOutbound(int msgSeqNum, out StoredMessage message)
    {
        ThrowIfUnusable();
        return TryRead(_file, _offsets, msgSeqNum, out message);
    }

    public bool IsQueued(int msgSeqNum) => _queued.Contains(msgSeqNum);

    public void MarkDelivered(int firstSeqNum, int lastSeqNum)
    {
        if (!_queued.Remove(firstSeqNum, lastSeqNum))
        {
            return;
        }

        Span<byte> payload = BeginRecord(9);
        payload[0] = KindDelivered;
        BinaryPrimitives.WriteInt32LittleEndian(payload[1..], firstSeqNum);
        BinaryPrimitives.WriteInt32LittleEndian(payload[5..], lastSeqNum);
        EndRecord(9);
    }

    /// <remarks>
    /// The reset store is written to a file beside this one, made durable per policy, and renamed over it: a crash
    /// before the rename leaves the store before the reset (the opening deletes the side file), one after it the reset
    /// store. Truncating in place would lose the queued messages and the position to a crash between the truncation
    /// and their records. Allocates (new mappings); a reset is rare.
    /// </remarks>
    public int Reset(int firstQueuedSeqNum, long sendingTimeNanos)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(firstQueuedSeqNum, 1);
        ThrowIfUnusable();
        int lost = 0;
        AppendMappedFile previous = _file;
        long previousLength = _fileLength;
        RecordOffsetIndex previousOffsets = _offsets;
        int previousNextSender = NextSenderSeqNum;
        string resetPath = ResetPath(_path);
        _file = Open(resetPath, FileMode.Create, contentLength: 0);
        _fileLength = 0;
        _unsyncedRecords = 0;
        _offsets = new RecordOffsetIndex(firstQueuedSeqNum);
        int next = firstQueuedSeqNum;
        try
        {
            // The reports sent so far stay sent: without this record, a restart after the reset could not tell which
            // journalled reports this session still lacks.
            if (LastEventId != ISessionStore.UnknownEventId)
            {
                SetLastEventId(LastEventId);
            }

            foreach (SeqNumRange range in _queued.Ranges)
            {
                for (int seq = range.First; seq <= range.Last; seq++)
                {
                    if (TryRead(previous, previousOffsets, seq, out StoredMessage message))
                    {
                        AppendMessage(next++, message.MsgType, sendingTimeNanos, message.Body, eventId: 0, queued: true);
                    }
                    else
                    {
                        lost++;
                    }
                }
            }

            AppendSeq(KindSenderSeq, next);
            _file.Close(_fileLength, sync: _policy != FsyncPolicy.Never);
        }
        catch
        {
            _file.Dispose();
            File.Delete(resetPath);
            (_file, _fileLength, _offsets, NextSenderSeqNum) = (previous, previousLength, previousOffsets, previousNextSender);
            throw;
        }

        // Closed before the rename: Windows refuses to replace a file that is open or mapped.
        previous.Dispose();
        try
        {
            File.Move(resetPath, _path, overwrite: true);
            if (_policy != FsyncPolicy.Never)
            {
                // Until the directory is synced, a power loss could bring back the store from before the reset.
                DirectorySync.SyncParentOf(_path);
            }

            _file = Open(_path, FileMode.Open, _fileLength);
        }
        catch (Exception ex)
        {
            // Neither file is open now. The folder holds one whole store (the one before the reset if the rename
            // failed, the reset one if not), which the next start opens; until then this object refuses use rather
            // than read a closed map.
            _unusable = $"Session store {_path} is unusable since a reset failed ({ex.GetType().Name}: {ex.Message}); restart to reopen it.";
            throw;
        }

        _unsyncedRecords = 0;
        _queued.Clear();
        for (int seq = firstQueuedSeqNum; seq < next; seq++)
        {
            _queued.Add(seq);
        }

        NextSenderSeqNum = next;
        NextTargetSeqNum = 1;
        return lost;
    }

    public void Flush()
    {
        ThrowIfUnusable();
        if (_policy != FsyncPolicy.Never)
        {
            Sync();
        }
    }

    /// <summary>Flushes per policy, unmaps and trims the unused tail.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        if (_unusable is null)
        {
            _file.Close(_fileLength, sync: _policy != FsyncPolicy.Never);
        }
    }

    private void ThrowIfUnusable()
    {
        if (_unusable is not null)
        {
            throw new InvalidOperationException(_unusable);
        }
    }

    private static string ResetPath(string path) => path + ".reset";

    private AppendMappedFile Open(string path, FileMode mode, long contentLength)
    {
        var file = new FileStream(path, mode, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0);
        try
        {
            return new AppendMappedFile(file, contentLength, _mapChunkBytes);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>Writes a message or report record and indexes it; the caller keeps the position and queued set.</summary>
    private void AppendMessage(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body, long eventId, bool queued)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(msgSeqNum, 1);
        int prefix = eventId > 0 ? 1 + EventIdSize : 1;
        int payloadLength = prefix + StoredMessageCodec.SizeOf(msgType, body);
        Span<byte> payload = BeginRecord(payloadLength);
        if (eventId > 0)
        {
            payload[0] = queued ? KindQueuedReport : KindReport;
            BinaryPrimitives.WriteInt64LittleEndian(payload[1..], eventId);
        }
        else
        {
            payload[0] = queued ? KindQueuedMessage : KindMessage;
        }

        StoredMessageCodec.Write(payload[prefix..], msgSeqNum, msgType, sendingTimeNanos, body);
        IndexMessage(msgSeqNum, _fileLength);
        NextSenderSeqNum = msgSeqNum + 1;
        EndRecord(payloadLength);
    }

    private void AppendSeq(byte kind, int value)
    {
        Span<byte> payload = BeginRecord(5);
        payload[0] = kind;
        BinaryPrimitives.WriteInt32LittleEndian(payload[1..], value);
        EndRecord(5);
    }

    /// <summary>The payload span of the next record, in the map at <see cref="_fileLength"/>.</summary>
    private Span<byte> BeginRecord(int payloadLength)
    {
        ThrowIfUnusable();
        if (payloadLength > MaxPayload)
        {
            throw new ArgumentException("record exceeds the store's maximum size", nameof(payloadLength));
        }

        _file.EnsureMapped(_fileLength + HeaderSize + payloadLength);
        return new Span<byte>(_file.Base + _fileLength + HeaderSize, payloadLength);
    }

    /// <summary>Seals the record (length and CRC after the payload: a record torn by a crash fails its CRC).</summary>
    private void EndRecord(int payloadLength)
    {
        var record = new Span<byte>(_file.Base + _fileLength, HeaderSize + payloadLength);
        BinaryPrimitives.WriteUInt32LittleEndian(record[4..], Crc32.Compute(record[HeaderSize..]));
        BinaryPrimitives.WriteInt32LittleEndian(record, payloadLength);
        _fileLength += record.Length;
        _unsyncedRecords++;
        if (_policy == FsyncPolicy.Always || (_policy == FsyncPolicy.Batch && _unsyncedRecords >= _batchSize))
        {
            Sync();
        }
    }

    private void Sync()
    {
        _file.Sync();
        _unsyncedRecords = 0;
    }

    /// <summary>Room prepared after the content for the next record: an ExecutionReport (~300 bytes) with room to spare.</summary>
    private const int PreparedRecordBytes = 1024;

    public bool NeedsPrepare => !_disposed && _unusable is null && (_offsets.NeedsPrepare(NextSenderSeqNum) || _file.NeedsPreparing(_fileLength, PreparedRecordBytes));

    /// <summary>
    /// One step per call: the offset index's chunk in progress first (a step is one page, ~33 steps every 16,384
    /// messages), else the file's next pages. The index goes first because the file may need preparing at every call
    /// (<see cref="FsyncPolicy.Always"/> syncs, and so unprepares, each record) and would otherwise starve it.
    /// </summary>
    public bool PrepareNextRecord() => _unusable is null && (_offsets.Prepare(NextSenderSeqNum) || _file.PrepareAhead(_fileLength, PreparedRecordBytes));

    private void IndexMessage(int seq, long recordOffset) => _offsets.Set(seq, recordOffset);

    /// <summary>Replays records from the start; sets <see cref="_fileLength"/> to the end of the last good record.</summary>
    private void Load(FileStream file)
    {
        var reader = new RecordReader(file.SafeFileHandle);
        while (reader.TryNext(out long offset, out ReadOnlySpan<byte> payload) && Apply(offset, payload))
        {
            _fileLength = offset + HeaderSize + payload.Length;
        }
    }

    private bool Apply(long recordOffset, ReadOnlySpan<byte> payload)
    {
        if (payload.IsEmpty)
        {
            return false;
        }

        ReadOnlySpan<byte> data = payload[1..];
        switch (payload[0])
        {
            case KindSenderSeq when data.Length == 4:
                NextSenderSeqNum = BinaryPrimitives.ReadInt32LittleEndian(data);
                return true;
            case KindTargetSeq when data.Length == 4:
                NextTargetSeqNum = BinaryPrimitives.ReadInt32LittleEndian(data);
                return true;
            case KindMessage or KindReport or KindQueuedMessage or KindQueuedReport
                when StoredMessageCodec.TryRead(MessageOf(payload), out StoredMessage message) && message.MsgSeqNum >= 1:
                IndexMessage(message.MsgSeqNum, recordOffset);
                NextSenderSeqNum = message.MsgSeqNum + 1;
                if (payload[0] is KindReport or KindQueuedReport)
                {
                    LastEventId = BinaryPrimitives.ReadInt64LittleEndian(data);
                }

                if (payload[0] is KindQueuedMessage or KindQueuedReport)
                {
                    _queued.Add(message.MsgSeqNum);
                }

                return true;
            case KindLastEventId when data.Length == EventIdSize:
                LastEventId = BinaryPrimitives.ReadInt64LittleEndian(data);
                return true;
            case KindDelivered when data.Length == 8:
                _queued.Remove(BinaryPrimitives.ReadInt32LittleEndian(data), BinaryPrimitives.ReadInt32LittleEndian(data[4..]));
                return true;
            default:
                return false;
        }
    }

    /// <summary>The message <paramref name="offsets"/> index in <paramref name="file"/> as <paramref name="msgSeqNum"/>.</summary>
    private static bool TryRead(AppendMappedFile file, RecordOffsetIndex offsets, int msgSeqNum, out StoredMessage message)
    {
        message = default;
        if (msgSeqNum < 1 || !offsets.TryGet(msgSeqNum, out long offset))
        {
            return false;
        }

        byte* record = file.Base + offset;
        int length = BinaryPrimitives.ReadInt32LittleEndian(new ReadOnlySpan<byte>(record, HeaderSize));
        var payload = new ReadOnlySpan<byte>(record + HeaderSize, length);
        return StoredMessageCodec.TryRead(MessageOf(payload), out message);
    }

    /// <summary>The stored-message bytes of a message or report record; empty for any other kind (never a message).</summary>
    private static ReadOnlySpan<byte> MessageOf(ReadOnlySpan<byte> payload)
    {
        if (payload.Length > 1 && payload[0] is KindMessage or KindQueuedMessage)
        {
            return payload[1..];
        }

        return payload.Length > 1 + EventIdSize && payload[0] is KindReport or KindQueuedReport ? payload[(1 + EventIdSize)..] : default;
    }

    /// <summary>Reads records sequentially through a 1 MB window; stops at the first torn or corrupt record.</summary>
    private sealed class RecordReader(Microsoft.Win32.SafeHandles.SafeFileHandle handle)
    {
        private byte[] _buffer = new byte[1024 * 1024];
        private int _start;
        private int _end;
        private long _bufferBase; // file offset of _buffer[0]
        private long _readPosition;

        public bool TryNext(out long offset, out ReadOnlySpan<byte> payload)
        {
            offset = 0;
            payload = default;
            if (!Ensure(HeaderSize))
            {
                return false;
            }

            int length = BinaryPrimitives.ReadInt32LittleEndian(_buffer.AsSpan(_start));
            uint crc = BinaryPrimitives.ReadUInt32LittleEndian(_buffer.AsSpan(_start + 4));
            if (length <= 0 || length > MaxPayload || !Ensure(HeaderSize + length))
            {
                return false;
            }

            ReadOnlySpan<byte> candidate = _buffer.AsSpan(_start + HeaderSize, length);
            if (Crc32.Compute(candidate) != crc)
            {
                return false;
            }

            offset = _bufferBase + _start;
            payload = candidate;
            _start += HeaderSize + length;
            return true;
        }

        private bool Ensure(int needed)
        {
            while (_end - _start < needed)
            {
                if (_start > 0)
                {
                    Buffer.BlockCopy(_buffer, _start, _buffer, 0, _end - _start);
                    _bufferBase += _start;
                    _end -= _start;
                    _start = 0;
                }

                if (needed > _buffer.Length)
                {
                    Array.Resize(ref _buffer, needed);
                }

                int read = RandomAccess.Read(handle, _buffer.AsSpan(_end), _readPosition);
                if (read == 0)
                {
                    return false;
                }

                _end += read;
                _readPosition += read;
            }

            return true;
        }
    }
}
