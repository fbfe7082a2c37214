using System.Diagnostics;
using Exchange.Core.Commands;
using Exchange.Host.Pipeline;

namespace Exchange.Host.Journal;

/// <summary>
/// Appends commands to the journal file: records are encoded into a preallocated buffer and written when the batch
/// ends (<see cref="CommitBatch"/>) or the buffer fills, then synced per <see cref="FsyncPolicy"/>.
/// </summary>
/// <remarks>
/// <para>Threading: one writer thread (the journaller processor). <see cref="DurableSequence"/> may be read from any
/// thread; a sender gates acknowledgements on it.</para>
/// <para>Allocation: none per record or per batch after construction (span writes to an unbuffered FileStream).</para>
/// </remarks>
internal sealed class JournalWriter : IDisposable
{
    private readonly FileStream _file;
    private readonly byte[] _buffer;
    private readonly FsyncPolicy _policy;
    private readonly long _fsyncIntervalTicks;
    private int _buffered;
    private long _lastAppended;
    private long _lastWritten;
    private long _lastSyncTimestamp;
    private bool _disposed;

    private JournalWriter(FileStream file, JournalOptions options, long lastSequence)
    {
        if (options.BufferRecords < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.BufferRecords, "BufferRecords must be at least 1.");
        }

        _file = file;
        _policy = options.FsyncPolicy;
        _fsyncIntervalTicks = (long)(options.FsyncInterval.TotalSeconds * Stopwatch.Frequency);
        _buffer = new byte[JournalFormat.RecordSize * options.BufferRecords];
        _lastAppended = lastSequence;
        _lastWritten = lastSequence;
        DurableSequence = new Sequence(lastSequence);
        SyncedSequence = new Sequence(lastSequence);
        _lastSyncTimestamp = Stopwatch.GetTimestamp();
    }

    /// <summary>
    /// The last record that is safe per the policy, for gating acknowledgements: on disk (fsynced) under
    /// <see cref="FsyncPolicy.EveryBatch"/>; handed to the OS under Periodic and Never, which survives a process
    /// crash (SIGKILL) but not a power loss (Periodic bounds that window by its interval).
    /// </summary>
    public Sequence DurableSequence { get; }

    /// <summary>The last record known to be on stable storage (after an fsync).</summary>
    public Sequence SyncedSequence { get; }

    /// <summary>The last record appended (maybe still in the buffer). Writer thread only.</summary>
    public long LastAppendedSequence => _lastAppended;

    /// <summary>
    /// Opens (or creates) the journal at <paramref name="path"/> for append. An existing file is scanned; a torn or
    /// corrupt tail is truncated away and described in <paramref name="scan"/> for the log. A file of another format
    /// throws <see cref="InvalidDataException"/> (start-up error, naming the difference).
    /// </summary>
    public static JournalWriter Open(string path, JournalOptions options, out JournalScan scan)
    {
        scan = new JournalScan(0, -1, JournalReadStatus.Clean, 0, 0);
        if (File.Exists(path))
        {
            using JournalReader reader = JournalReader.Open(path);
            while (reader.TryRead(out _, out _))
            {
            }

            scan = new JournalScan(reader.RecordsRead, reader.LastSequence, reader.Status, reader.StopOffset, reader.DroppedBytes);
        }

        var file = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0, FileOptions.None);
        try
        {
            if (scan.GoodLength < JournalFormat.HeaderSize)
            {
                Span<byte> header = stackalloc byte[JournalFormat.HeaderSize];
                JournalFormat.WriteHeader(header);
                file.SetLength(0);
                file.Write(header);
                file.Flush(flushToDisk: true);
                scan = scan with { GoodLength = JournalFormat.HeaderSize };
            }
            else if (file.Length != scan.GoodLength)
            {
                file.SetLength(scan.GoodLength);
                file.Flush(flushToDisk: true);
            }

            file.Position = scan.GoodLength;
            return new JournalWriter(file, options, scan.LastSequence);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>Buffers one record; writes the buffer out first when it is full. Call <see cref="CommitBatch"/> at batch end.</summary>
    public void Append(in Command command, long sequence)
    {
        int recordSize = JournalFormat.RecordSize;
        if (_buffered + recordSize > _buffer.Length)
        {
            WriteBuffered();
        }

        JournalFormat.WriteRecord(_buffer.AsSpan(_buffered, recordSize), sequence, in command);
        _buffered += recordSize;
        _lastAppended = sequence;
    }

    /// <summary>Writes buffered records and syncs per policy, then advances <see cref="DurableSequence"/>.</summary>
    public void CommitBatch()
    {
        WriteBuffered();
        switch (_policy)
        {
            case FsyncPolicy.EveryBatch:
                Sync();
                break;
            case FsyncPolicy.Periodic:
                DurableSequence.SetValue(_lastWritten);
                if (Stopwatch.GetTimestamp() - _lastSyncTimestamp >= _fsyncIntervalTicks)
                {
                    Sync();
                }

                break;
            default:
                DurableSequence.SetValue(_lastWritten);
                break;
        }
    }

    /// <summary>Forces everything written so far to stable storage.</summary>
    public void Sync()
    {
        WriteBuffered();
        if (SyncedSequence.Value != _lastWritten)
        {
            _file.Flush(flushToDisk: true);
        }

        _lastSyncTimestamp = Stopwatch.GetTimestamp();
        SyncedSequence.SetValue(_lastWritten);
        DurableSequence.SetValue(_lastWritten);
    }

    /// <summary>Writes and syncs what is buffered, then closes the file.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        Sync();
        _file.Dispose();
    }

    private void WriteBuffered()
    {
        if (_buffered == 0)
        {
            return;
        }

        _file.Write(_buffer, 0, _buffered);
        _buffered = 0;
        _lastWritten = _lastAppended;
    }
}
