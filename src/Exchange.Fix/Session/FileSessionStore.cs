using System.Buffers.Binary;
using Exchange.Core.Storage;

namespace Exchange.Fix.Session;

/// <summary>
/// A durable <see cref="ISessionStore"/>: one append-only file of records, each [int32 payloadLength][uint32 CRC-32 of
/// payload][payload], payload = [kind][data]. Kinds: next sender seq, next target seq, stored outbound message
/// (which also sets the next sender seq). Opening replays the records; the first record that is short, oversized or
/// fails its CRC ends the replay and the file is truncated there, so a record torn by a crash is dropped and later
/// appends never follow garbage.
/// </summary>
/// <remarks>
/// Records are staged in a preallocated buffer and written with positional writes, so the per-message path does not
/// allocate (only when the staging buffer or the seq index has to grow). Resends read messages back from the file
/// through a reusable buffer; only an index of record offsets is kept in memory. The file grows with the session and
/// is truncated on <see cref="Reset"/> (ResetSeqNumFlag logon); there is no other compaction. Single-threaded.
/// </remarks>
public sealed class FileSessionStore : ISessionStore
{
    private const int HeaderSize = 8;
    private const int MaxPayload = 16 * 1024 * 1024;
    private const byte KindSenderSeq = 1;
    private const byte KindTargetSeq = 2;
    private const byte KindMessage = 3;

    private readonly FileStream _file;
    private readonly FsyncPolicy _policy;
    private readonly int _batchSize;
    private byte[] _pending = new byte[64 * 1024];
    private int _pendingLength;
    private int _unsyncedRecords;
    private long _fileLength;
    private long[] _offsets = new long[1024]; // record offset + 1 by seq; 0 = not stored
    private byte[] _readBuffer = new byte[4096];

    public FileSessionStore(string path, FsyncPolicy policy = FsyncPolicy.Always, int batchSize = 64)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        ArgumentOutOfRangeException.ThrowIfLessThan(batchSize, 1);
        _policy = policy;
        _batchSize = batchSize;
        string? directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (directory is not null)
        {
            Directory.CreateDirectory(directory);
        }

        // bufferSize 0: no FileStream buffering; all I/O is positional through the handle and our staging buffer.
        _file = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0);
        Load();
        if (_file.Length != _fileLength)
        {
            _file.SetLength(_fileLength);
            _file.Flush(flushToDisk: true);
        }
    }

    public int NextSenderSeqNum { get; private set; } = 1;

    public int NextTargetSeqNum { get; private set; } = 1;

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

    public void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(msgSeqNum, 1);
        int payloadLength = 1 + StoredMessageCodec.SizeOf(msgType, body);
        Span<byte> payload = BeginRecord(payloadLength, out long recordOffset);
        payload[0] = KindMessage;
        StoredMessageCodec.Write(payload[1..], msgSeqNum, msgType, sendingTimeNanos, body);
        IndexMessage(msgSeqNum, recordOffset);
        NextSenderSeqNum = msgSeqNum + 1;
        EndRecord(payloadLength);
    }

    public bool TryGetOutbound(int msgSeqNum, out StoredMessage message)
    {
        message = default;
        if (msgSeqNum < 1 || msgSeqNum >= _offsets.Length || _offsets[msgSeqNum] == 0)
        {
            return false;
        }

        long offset = _offsets[msgSeqNum] - 1;
        ReadOnlySpan<byte> payload;
        if (offset >= _fileLength)
        {
            ReadOnlySpan<byte> record = _pending.AsSpan((int)(offset - _fileLength));
            payload = record.Slice(HeaderSize, BinaryPrimitives.ReadInt32LittleEndian(record));
        }
        else
        {
            Span<byte> header = _readBuffer.AsSpan(0, HeaderSize);
            if (RandomAccess.Read(_file.SafeFileHandle, header, offset) != HeaderSize)
            {
                return false;
            }

            int length = BinaryPrimitives.ReadInt32LittleEndian(header);
            if (length > _readBuffer.Length)
            {
                _readBuffer = new byte[Math.Max(length, _readBuffer.Length * 2)];
            }

            Span<byte> target = _readBuffer.AsSpan(0, length);
            if (RandomAccess.Read(_file.SafeFileHandle, target, offset + HeaderSize) != length)
            {
                return false;
            }

            payload = target;
        }

        return payload.Length > 1 && payload[0] == KindMessage && StoredMessageCodec.TryRead(payload[1..], out message);
    }

    public void Reset()
    {
        _pendingLength = 0;
        _unsyncedRecords = 0;
        _file.SetLength(0);
        _fileLength = 0;
        Array.Clear(_offsets);
        NextSenderSeqNum = 1;
        NextTargetSeqNum = 1;
        if (_policy != FsyncPolicy.Never)
        {
            _file.Flush(flushToDisk: true);
        }
    }

    public void Flush()
    {
        WritePending();
        if (_policy != FsyncPolicy.Never)
        {
            _file.Flush(flushToDisk: true);
            _unsyncedRecords = 0;
        }
    }

    public void Dispose()
    {
        Flush();
        _file.Dispose();
    }

    private void AppendSeq(byte kind, int value)
    {
        Span<byte> payload = BeginRecord(5, out _);
        payload[0] = kind;
        BinaryPrimitives.WriteInt32LittleEndian(payload[1..], value);
        EndRecord(5);
    }

    /// <summary>Reserves a record in the staging buffer; <paramref name="recordOffset"/> is where it will sit in the file.</summary>
    private Span<byte> BeginRecord(int payloadLength, out long recordOffset)
    {
        if (payloadLength > MaxPayload)
        {
            throw new ArgumentException("record exceeds the store's maximum size", nameof(payloadLength));
        }

        int total = HeaderSize + payloadLength;
        if (_pendingLength + total > _pending.Length)
        {
            WritePending();
            if (total > _pending.Length)
            {
                _pending = new byte[Math.Max(total, _pending.Length * 2)];
            }
        }

        recordOffset = _fileLength + _pendingLength;
        return _pending.AsSpan(_pendingLength + HeaderSize, payloadLength);
    }

    private void EndRecord(int payloadLength)
    {
        Span<byte> record = _pending.AsSpan(_pendingLength, HeaderSize + payloadLength);
        BinaryPrimitives.WriteInt32LittleEndian(record, payloadLength);
        BinaryPrimitives.WriteUInt32LittleEndian(record[4..], Crc32.Compute(record[HeaderSize..]));
        _pendingLength += record.Length;

        // Every record reaches the OS before the message it numbers can reach the client, under every policy: a
        // process crash must never make the venue reuse a sequence number. The policies differ only in fsyncs.
        WritePending();
        _unsyncedRecords++;
        if (_policy == FsyncPolicy.Always || (_policy == FsyncPolicy.Batch && _unsyncedRecords >= _batchSize))
        {
            _file.Flush(flushToDisk: true);
            _unsyncedRecords = 0;
        }
    }

    private void WritePending()
    {
        if (_pendingLength == 0)
        {
            return;
        }

        RandomAccess.Write(_file.SafeFileHandle, _pending.AsSpan(0, _pendingLength), _fileLength);
        _fileLength += _pendingLength;
        _pendingLength = 0;
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
    private void Load()
    {
        var reader = new RecordReader(_file.SafeFileHandle);
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
            case KindMessage when StoredMessageCodec.TryRead(data, out StoredMessage message) && message.MsgSeqNum >= 1:
                IndexMessage(message.MsgSeqNum, recordOffset);
                NextSenderSeqNum = message.MsgSeqNum + 1;
                return true;
            default:
                return false;
        }
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
