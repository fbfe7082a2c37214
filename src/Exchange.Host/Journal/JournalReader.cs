using Exchange.Core.Commands;

namespace Exchange.Host.Journal;

/// <summary>
/// Reads a journal's header and then its records in order, stopping at the first slot that is not a valid record.
/// <see cref="JournalTail"/> judges that slot: the clean end (zeros), a torn last record, or corruption. A record from
/// there on is never returned; <see cref="Status"/>, <see cref="StopOffset"/>, <see cref="DroppedBytes"/> and
/// <see cref="Problem"/> say what was found so the host can log "dropped torn record at offset X" or refuse to start.
/// </summary>
/// <remarks>Single-threaded; used at start-up for replay and by <see cref="JournalWriter"/> to find the good end.</remarks>
internal sealed class JournalReader : IDisposable
{
    private const int RecordsPerRead = 256;

    private readonly FileStream _file;
    private readonly byte[] _buffer;
    private readonly long _fileLength;
    private readonly bool _judgeTail;
    private int _bufferCount;
    private int _bufferPosition;
    private long _bufferFileOffset;
    private bool _stopped;

    private JournalReader(FileStream file, JournalHeader? header, bool judgeTail)
    {
        _file = file;
        _fileLength = file.Length;
        _judgeTail = judgeTail;
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

    /// <summary>Bytes of the torn record (or header) that will never be returned; zero otherwise.</summary>
    public long DroppedBytes { get; private set; }

    /// <summary>For <see cref="JournalReadStatus.Corrupt"/>: what was found where, in words for the operator.</summary>
    public string? Problem { get; private set; }

    /// <summary>
    /// Opens <paramref name="path"/> to recover from it: reading stops at the first slot that is not a valid record,
    /// and everything after that slot is read to judge it (<see cref="JournalTail"/>). A file shorter than its header is
    /// reported as a torn header with no records; a header of another format, version or layout throws
    /// <see cref="JournalRefusedException"/> naming the difference.
    /// </summary>
    public static JournalReader Open(string path) => Open(path, judgeTail: true);

    /// <summary>
    /// An upper bound on the last record sequence of the journal at <paramref name="path"/>, from its header and size alone
    /// (-1 when it does not exist): exact after a graceful stop, which trims the file; above it after a crash, which
    /// leaves the zeros the writer extended the file with.
    /// </summary>
    public static long HighestPossibleSequence(string path)
    {
        if (!File.Exists(path))
        {
            return -1;
        }

        using JournalReader reader = OpenWhileWriting(path);
        long dataStart = reader.Header?.DataStart ?? JournalFormat.PrefixSize;
        return (Math.Max(0, new FileInfo(path).Length - dataStart) / JournalFormat.RecordSize) - 1;
    }

    /// <summary>
    /// <see cref="Open(string)"/> for a journal whose writer is still running: stops at the first slot that is not a
    /// valid record without judging what follows, because the writer may be in the middle of it.
    /// </summary>
    public static JournalReader OpenWhileWriting(string path) => Open(path, judgeTail: false);

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
            Stop(record);
            return false;
        }

        _bufferPosition += recordSize;
        StopOffset += recordSize;
        RecordsRead++;
        LastSequence = sequence;
        return true;
    }

    public void Dispose() => _file.Dispose();

    private static JournalReader Open(string path, bool judgeTail)
    {
        var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, bufferSize: 0, FileOptions.SequentialScan);
        try
        {
            if (JournalHeader.Read(file, out JournalHeader? header, out string? problem) == JournalHeaderStatus.Refused)
            {
                throw new JournalRefusedException(JournalRefusal.Format, $"Journal '{path}': {problem}.");
            }

            return new JournalReader(file, header, judgeTail);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

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

        // The file ends inside this slot (or at its start): nothing follows it.
        Stop(_buffer.AsSpan(0, _bufferCount));
        return false;
    }

    private void Stop(ReadOnlySpan<byte> slot)
    {
        _stopped = true;
        long afterSlot = StopOffset + slot.Length;
        JournalTrailingData after = _judgeTail && afterSlot < _fileLength
            ? JournalTrailingData.Read(_file, afterSlot)
            : JournalTrailingData.None;
        JournalTailVerdict verdict = JournalTail.Judge(slot, StopOffset, after);
        Status = verdict.Status;
        Problem = verdict.Problem;
        DroppedBytes = Status == JournalReadStatus.TornRecord ? slot.Length : 0;
    }
}
