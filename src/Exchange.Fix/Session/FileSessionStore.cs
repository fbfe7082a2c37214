using System.Buffers.Binary;
using Exchange.Core.Storage;

namespace Exchange.Fix.Session;

/// <summary>
/// A durable <see cref="ISessionStore"/>: one append-only file of records, each [int32 payloadLength][uint32 CRC-32 of
/// payload][payload], payload = [kind][data]. Kinds: next sender seq, next target seq, stored outbound message (which
/// also sets the next sender seq), stored report (a message with the int64 event id that becomes
/// <see cref="LastEventId"/>), and last event id alone. Opening replays the records; the first record that is short,
/// oversized, of an unknown kind or fails its CRC ends the replay and the file is truncated there, so a record torn by
/// a crash is dropped and later appends never follow garbage.
/// </summary>
/// <remarks>
/// <para>Records are written straight into a memory map of the file: a record is in the OS page cache (safe from a
/// process crash) as soon as the call returns, for the cost of a copy rather than a system call per record, which on
/// the order path is the difference between a few and a few tens of microseconds. Fsyncs follow the
/// <see cref="FsyncPolicy"/>. The file is extended (sparsely) a chunk ahead of the records; the zero-filled rest reads
/// as the end on replay, and <see cref="Dispose"/> trims it.</para>
/// <para>Resends read stored messages from the map; only an index of record offsets is kept in memory. The file grows
/// with the session and is truncated on <see cref="Reset"/> (ResetSeqNumFlag logon), which then writes the last event
/// id again as its first record; there is no other compaction. A build from before reports carried their event id
/// stops reading at the first such record (and truncates there): do not run an older build on a newer store.
/// Single-threaded. Allocation: none per record (a new mapping object when the file grows by a chunk).</para>
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
    private const int EventIdSize = 8;

    private readonly AppendMappedFile _file;
    private readonly FsyncPolicy _policy;
    private readonly int _batchSize;
    private long _fileLength; // end of the last record: where the next one goes
    private int _unsyncedRecords;
    private long[] _offsets = new long[1024]; // record offset + 1 by seq; 0 = not stored
    private bool _disposed;

    /// <param name="path">The store file; created with its folder when missing.</param>
    /// <param name="policy">When records are fsynced (every policy hands each record to the OS at once).</param>
    /// <param name="batchSize">With <see cref="FsyncPolicy.Batch"/>: records per fsync.</param>
    /// <param name="mapChunkBytes">How far ahead of the records the file is extended and mapped at a time.</param>
    public FileSessionStore(string path, FsyncPolicy policy = FsyncPolicy.Always, int batchSize = 64, long mapChunkBytes = 1024 * 1024)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(mapChunkBytes, 4096);
        _policy = policy;
        _batchSize = batchSize;
        string? directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (directory is not null)
        {
            Directory.CreateDirectory(directory);
        }

        // bufferSize 0: no FileStream buffering; the replay reads positionally, appends go through the map (which
        // also truncates whatever follows the last good record).
        var file = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0);
        try
        {
            Load(file);
            _file = new AppendMappedFile(file, _fileLength, mapChunkBytes);
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

    public void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body, long eventId = 0)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(msgSeqNum, 1);
        int prefix = eventId > 0 ? 1 + EventIdSize : 1;
        int payloadLength = prefix + StoredMessageCodec.SizeOf(msgType, body);
        Span<byte> payload = BeginRecord(payloadLength);
        if (eventId > 0)
        {
            payload[0] = KindReport;
            BinaryPrimitives.WriteInt64LittleEndian(payload[1..], eventId);
            LastEventId = eventId;
        }
        else
        {
            payload[0] = KindMessage;
        }

        StoredMessageCodec.Write(payload[prefix..], msgSeqNum, msgType, sendingTimeNanos, body);
        IndexMessage(msgSeqNum, _fileLength);
        NextSenderSeqNum = msgSeqNum + 1;
        EndRecord(payloadLength);
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
        message = default;
        if (msgSeqNum < 1 || msgSeqNum >= _offsets.Length || _offsets[msgSeqNum] == 0)
        {
            return false;
        }

        byte* record = _file.Base + (_offsets[msgSeqNum] - 1);
        int length = BinaryPrimitives.ReadInt32LittleEndian(new ReadOnlySpan<byte>(record, HeaderSize));
        var payload = new ReadOnlySpan<byte>(record + HeaderSize, length);
        return StoredMessageCodec.TryRead(MessageOf(payload), out message);
    }

    public void Reset()
    {
        _file.Reset(sync: _policy != FsyncPolicy.Never);
        _fileLength = 0;
        _unsyncedRecords = 0;
        Array.Clear(_offsets);
        NextSenderSeqNum = 1;
        NextTargetSeqNum = 1;

        // The reports sent so far stay sent: without this record, a restart after the reset could not tell which
        // journalled reports this session still lacks.
        if (LastEventId != ISessionStore.UnknownEventId)
        {
            SetLastEventId(LastEventId);
        }
    }

    public void Flush()
    {
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
        _file.Close(_fileLength, sync: _policy != FsyncPolicy.Never);
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

    private void IndexMessage(int seq, long recordOffset)
    {
        if (seq >= _offsets.Length)
        {
            Array.Resize(ref _offsets, Math.Max(_offsets.Length * 2, seq + 1));
        }

        _offsets[seq] = recordOffset + 1;
    }

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
            case KindMessage or KindReport when StoredMessageCodec.TryRead(MessageOf(payload), out StoredMessage message) && message.MsgSeqNum >= 1:
                IndexMessage(message.MsgSeqNum, recordOffset);
                NextSenderSeqNum = message.MsgSeqNum + 1;
                if (payload[0] == KindReport)
                {
                    LastEventId = BinaryPrimitives.ReadInt64LittleEndian(data);
                }

                return true;
            case KindLastEventId when data.Length == EventIdSize:
                LastEventId = BinaryPrimitives.ReadInt64LittleEndian(data);
                return true;
            default:
                return false;
        }
    }

    /// <summary>The stored-message bytes of a message or report record; empty for any other kind (never a message).</summary>
    private static ReadOnlySpan<byte> MessageOf(ReadOnlySpan<byte> payload)
    {
        if (payload.Length > 1 && payload[0] == KindMessage)
        {
            return payload[1..];
        }

        return payload.Length > 1 + EventIdSize && payload[0] == KindReport ? payload[(1 + EventIdSize)..] : default;
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
