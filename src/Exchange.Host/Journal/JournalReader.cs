using Exchange.Core.Commands;

namespace Exchange.Host.Journal;

/// <summary>
/// Reads a journal's header and then its records in order, stopping at the first record that is incomplete (torn
/// write) or fails its CRC, or at the zero-filled tail the writer extends the file by (see <see cref="JournalWriter"/>).
/// It never returns such a record; <see cref="Status"/>, <see cref="StopOffset"/> and <see cref="DroppedBytes"/> say
/// what was dropped so the host can log "dropped torn record at offset X".
/// </summary>
/// <remarks>Single-threaded; used at start-up for replay and by <see cref="JournalWriter"/> to find the good end.</remarks>
internal sealed class JournalReader : IDisposable
{
    private const int RecordsPerRead = 256;

    private readonly FileStream _file;
    private readonly byte[] _buffer;
    private readonly long _fileLength;
    private int _bufferCount;
    private int _bufferPosition;
    private long _bufferFileOffset;
    private bool _stopped;

    private JournalReader(FileStream file, JournalHeader? header)
    {
        _file = file;
        _fileLength = file.Length;
        _buffer = new byte[JournalFormat.RecordSize * RecordsPerRead];
        Header = header;
        long dataStart = header?.DataStart ?? 0;
        _bufferFileOffset = dataStart;
        StopOffset = dataStart;
        if (header is null)
        {
            // A header cut short: no records can follow it (it is fsynced before the first one).
            _stopped = true;
            Status = _fileLength == 0 ? JournalReadStatus.Clean : JournalReadStatus.TornRecord;
            DroppedBytes = _fileLength;
        }
    }

    /// <summary>The header, with the configuration the journal was written with; null when the file is shorter than a header.</summary>
    public JournalHeader? Header { get; }

    /// <summary>Records returned so far.</summary>
    public long RecordsRead { get; private set; }

    /// <summary>Sequence of the last record returned; -1 when none.</summary>
    public long LastSequence { get; private set; } = -1;

    public JournalReadStatus Status { get; private set; }

    /// <summary>File offset just past the last valid record returned: the good length of the journal.</summary>
    public long StopOffset { get; private set; }

    /// <summary>
    /// Bytes after <see cref="StopOffset"/> that were not (and will never be) returned, once reading stopped on a bad
    /// record; zero at a clean end (the unused, zero-filled tail a crashed writer leaves is not data).
    /// </summary>
    public long DroppedBytes { get; private set; }

    /// <summary>
    /// Opens <paramref name="path"/> for reading. A file shorter than its header is reported as a torn header with no
    /// records; a header of another format, version or layout throws <see cref="JournalRefusedException"/> naming the
    /// difference.
    /// </summary>
    public static JournalReader Open(string path)
    {
        var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, bufferSize: 0, FileOptions.SequentialScan);
        try
        {
            if (JournalHeader.Read(file, out JournalHeader? header, out string? problem) == JournalHeaderStatus.Refused)
            {
                throw new JournalRefusedException(JournalRefusal.Format, $"Journal '{path}': {problem}.");
            }

            return new JournalReader(file, header);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>The next valid record; false at the end of the valid records (see <see cref="Status"/> for why).</summary>
    public bool TryRead(out long sequence, out Command command)
    {
        sequence = -1;
        command = default;
        if (_stopped)
        {
            return false;
        }

        int recordSize = JournalFormat.RecordSize;
        if (_bufferCount - _bufferPosition < recordSize && !Refill())
        {
            return false;
        }

        ReadOnlySpan<byte> record = _buffer.AsSpan(_bufferPosition, recordSize);
        if (!JournalFormat.TryReadRecord(record, out sequence, out command))
        {
            sequence = -1;
            command = default;
            Stop(Classify(record));
            return false;
        }

        _bufferPosition += recordSize;
        StopOffset += recordSize;
        RecordsRead++;
        LastSequence = sequence;
        return true;
    }

    public void Dispose() => _file.Dispose();

    // Moves the unread tail to the front and reads more; false (and stopped) when no complete record remains.
    private bool Refill()
    {
        int leftover = _bufferCount - _bufferPosition;
        _buffer.AsSpan(_bufferPosition, leftover).CopyTo(_buffer);
        _bufferFileOffset += _bufferPosition;
        _bufferPosition = 0;
        _bufferCount = leftover;
        _file.Position = _bufferFileOffset + leftover;
        _bufferCount += _file.ReadAtLeast(_buffer.AsSpan(leftover), _buffer.Length - leftover, throwOnEndOfStream: false);
        if (_bufferCount >= JournalFormat.RecordSize)
        {
            return true;
        }

        Stop(_bufferCount == 0 ? JournalReadStatus.Clean : JournalReadStatus.TornRecord);
        return false;
    }

    /// <summary>
    /// Why a complete record slot failed its CRC. All zeros: space the writer extended the file by but never used (the
    /// clean end). A zero CRC field: a write that stopped before its last bytes (the CRC is written after the data),
    /// i.e. torn. Anything else: corruption.
    /// </summary>
    private static JournalReadStatus Classify(ReadOnlySpan<byte> record)
    {
        if (!record.ContainsAnyExcept((byte)0))
        {
            return JournalReadStatus.Clean;
        }

        return record.Slice(JournalFormat.CrcOffset, 4).ContainsAnyExcept((byte)0)
            ? JournalReadStatus.CrcMismatch
            : JournalReadStatus.TornRecord;
    }

    private void Stop(JournalReadStatus status)
    {
        Status = status;
        _stopped = true;
        DroppedBytes = status != JournalReadStatus.Clean ? _fileLength - StopOffset : 0;
    }
}
