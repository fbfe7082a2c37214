using System.Diagnostics;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Storage;
using Exchange.Host.Pipeline;

namespace Exchange.Host.Journal;

/// <summary>One journalled command handed to recovery: its journal sequence and the command as accepted.</summary>
public delegate void JournalReplay(long sequence, in Command command);

/// <summary>
/// Appends commands to the journal file through a memory map: each record is encoded straight into the mapped file
/// (the OS page cache), <see cref="CommitBatch"/> publishes the batch and syncs per <see cref="FsyncPolicy"/>.
/// </summary>
/// <remarks>
/// <para>Why a map: a write system call per batch costs microseconds on the order path (more when the file system's
/// journal thread competes for a core); a copy into a mapped page costs nanoseconds and survives a process crash just
/// the same, because the page belongs to the kernel. The file is extended (sparsely) <see cref="JournalOptions.MapChunkBytes"/>
/// at a time ahead of the records, so the unused tail reads as zeros; <see cref="JournalReader"/> treats an all-zero
/// record with only zeros after it as the end (<see cref="JournalTail"/>). <see cref="Dispose"/> trims the tail.</para>
/// <para>Each record is written once, in order, CRC last, into zeros: the shapes a crash can leave follow from that,
/// and <see cref="JournalTail"/> drops only those.</para>
/// <para>Threading: one writer thread (the journaller processor). <see cref="DurableSequence"/> may be read from any
/// thread; a sender gates acknowledgements on it.</para>
/// <para>Allocation: none per record or per batch; a new mapping object each time the file grows by a chunk.</para>
/// </remarks>
internal sealed unsafe class JournalWriter : IDisposable
{
    private readonly AppendMappedFile _file;
    private readonly FsyncPolicy _policy;
    private readonly long _fsyncIntervalTicks;
    private long _position;
    private long _lastAppended;
    private long _lastWritten;
    private long _lastSyncTimestamp;
    private bool _disposed;

    private JournalWriter(FileStream file, JournalOptions options, long lastSequence, long position)
    {
        if (options.MapChunkBytes < JournalFormat.RecordSize)
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.MapChunkBytes, "MapChunkBytes must hold at least one record.");
        }

        _file = new AppendMappedFile(file, position, options.MapChunkBytes, options.MapReserveBytes);
        _policy = options.FsyncPolicy;
        _fsyncIntervalTicks = (long)(options.FsyncInterval.TotalSeconds * Stopwatch.Frequency);
        PeriodicSyncInterval = _policy == FsyncPolicy.Periodic ? options.FsyncInterval : null;
        _position = position;
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
    /// Opens (or creates) the journal at <paramref name="path"/> for append, written with <paramref name="configuration"/>.
    /// An existing file is scanned; a torn last record is truncated away and described in <paramref name="scan"/> for the
    /// log. Throws <see cref="JournalRefusedException"/>, leaving the file untouched, for a file of another format, a
    /// corrupt record (<see cref="JournalTail"/>), or recorded instruments or sessions the configuration no longer has at
    /// the same positions (unless the journal holds no records).
    /// </summary>
    public static JournalWriter Open(string path, JournalOptions options, JournalConfiguration configuration, out JournalScan scan) =>
        Open(path, options, configuration, null, out scan);

    /// <summary>
    /// <see cref="Open(string, JournalOptions, JournalConfiguration, out JournalScan)"/>, handing every valid record to
    /// <paramref name="replay"/> during the same scan, so recovery reads the journal once. Only records before a torn
    /// tail are handed on, and none when the configuration differs; an exception from <paramref name="replay"/> aborts
    /// the open. A refusal for corruption comes after the records before the corrupt one were handed on.
    /// </summary>
    /// <param name="beforeWriting">
    /// Called with the scan once every record is read and before anything is written (a new header, a version mark, a
    /// configuration extension, the truncation of a torn tail): a refusal it throws leaves the file as it was.
    /// </param>
    public static JournalWriter Open(
        string path, JournalOptions options, JournalConfiguration configuration, JournalReplay? replay, out JournalScan scan, Action<JournalScan>? beforeWriting = null)
    {
        scan = new JournalScan(0, -1, JournalReadStatus.Clean, 0, 0);
        JournalHeader? header = null;
        JournalConfigurationMatch? match = null;
        if (File.Exists(path))
        {
            using JournalReader reader = JournalReader.Open(path);
            header = reader.Header;
            if (header is not null)
            {
                match = JournalConfigurationMatch.Compare(header.Configuration, configuration);

                // Checked before anything is replayed: under other instruments or sessions every command would be misrouted.
                if (match.Relation == ConfigurationRelation.Differs && reader.TryRead(out _, out _))
                {
                    throw ConfigurationRefused(path, match);
                }
            }

            bool olderDayRule = header is not null && header.Version < JournalFormat.CarriedIdsVersion;
            long sideBlindCancelsThrough = header?.SideBlindCancelsThrough ?? JournalHeader.NoSideBlindCancels;
            bool sawGoodTillCancel = false;
            while (reader.TryRead(out long sequence, out Command command))
            {
                if (olderDayRule)
                {
                    // Only a GoodTillCancel order can be carried over a roll (Day orders expire at it), so a roll before
                    // any was sent carries nothing and replays the same under either rule.
                    sawGoodTillCancel |= command.Type == CommandType.NewOrder && command.TimeInForce == TimeInForce.GoodTillCancel;
                    if (sawGoodTillCancel && command.Type == CommandType.NewTradingDay)
                    {
                        throw OlderDayRuleRefused(path, header!.Version, sequence);
                    }
                }

                if (command.Type == CommandType.Cancel && sequence <= sideBlindCancelsThrough)
                {
                    // Written when a cancel carried out whatever its Side; None replays it so.
                    command.Side = Side.None;
                }

                replay?.Invoke(sequence, in command);
            }

            if (reader.Status == JournalReadStatus.Corrupt)
            {
                throw new JournalRefusedException(
                    JournalRefusal.Corruption,
                    $"Journal '{path}' is corrupt: {reader.Problem}. The venue will not start, and the file was left as it is: "
                    + "restore it from a copy; or, after a power loss with Fsync EveryBatch (where nothing past the last completed "
                    + "fsync was acknowledged), truncate it at the offset named to keep everything before it; moving it away "
                    + "begins a new journal and loses every resting order.");
            }

            scan = new JournalScan(reader.RecordsRead, reader.LastSequence, reader.Status, reader.StopOffset, reader.DroppedBytes);

            // A journal without records has no commands to misroute: it takes the current configuration, whatever it
            // recorded (a new header, written only when the recorded one differs).
            header = reader.RecordsRead == 0 && match?.Relation != ConfigurationRelation.Same ? null : header;
        }

        beforeWriting?.Invoke(scan);
        var file = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0, FileOptions.None);
        try
        {
            string change = "";
            if (header is null)
            {
                header = JournalHeader.WriteNew(file, configuration);
                scan = scan with { GoodLength = header.DataStart };

                // The header is synced; the file's name must be too, or a power loss can lose the whole journal
                // (DirectorySync). Whatever the fsync policy: it happens only when a header is written.
                DirectorySync.SyncParentOf(path);
                change = match is { Relation: not ConfigurationRelation.Same }
                    ? "the journal held no records, so it now records the current configuration"
                    : "";
            }
            else
            {
                // Recording the configuration is the step that can still refuse (no room in the header), before anything
                // is written, so a refusal leaves an older journal unmarked and the build that wrote it can still open it.
                int version = header.Version;
                bool extended = match!.Relation == ConfigurationRelation.Extended;
                string extension = extended ? $"configuration extended at the end: {match.Additions}" : "";

                // An extension is recorded before any command can name a new index, so a restart under the old lists is
                // refused. An older journal records it (or its own configuration) with the mark, in one new generation.
                string? problem = null;
                if (version < JournalFormat.Version)
                {
                    change = $"format version {version} marked {JournalFormat.Version} (it replays the same; a version {version} build now refuses it)";
                    header = header.MarkCurrentVersion(file, extended ? configuration : header.Configuration, scan.LastSequence, out problem);
                }
                else if (extended)
                {
                    header = header.Record(file, configuration, out problem);
                }

                if (header is null)
                {
                    throw new JournalRefusedException(JournalRefusal.Configuration, $"Journal '{path}': {problem}.");
                }

                change = change.Length == 0 ? extension : extension.Length == 0 ? change : change + "; " + extension;

                if (file.Length != scan.GoodLength)
                {
                    file.SetLength(scan.GoodLength);
                    file.Flush(flushToDisk: true);
                }
            }

            scan = scan with { ConfigurationChange = change };
            return new JournalWriter(file, options, scan.LastSequence, scan.GoodLength);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>
    /// A journal older than <see cref="JournalFormat.CarriedIdsVersion"/> that crossed a trading day after a GoodTillCancel
    /// order was sent: under its build, the ids of orders carried into the new day were free again once those orders
    /// ended; now they are used all day, so the commands after the roll may not replay the same. Refused at the roll,
    /// before it is replayed, with the file as it was.
    /// </summary>
    private static JournalRefusedException OlderDayRuleRefused(string path, int version, long sequence) => new(
        JournalRefusal.Format,
        $"Journal '{path}' is format version {version} and holds a new trading day after a GoodTillCancel order (record {sequence}). Version "
        + $"{JournalFormat.CarriedIdsVersion} keeps the ClOrdIDs of GoodTillCancel orders carried into a new day in use for that "
        + "whole day, so the commands after that day began may not replay as they ran. Start it with the build that wrote it, "
        + "or move it away to begin a new journal.");

    private static JournalRefusedException ConfigurationRefused(string path, JournalConfigurationMatch match)
    {
        const int Shown = 10;
        string differences = string.Join("; ", match.Differences.Take(Shown));
        string more = match.Differences.Count > Shown ? $"; and {match.Differences.Count - Shown} more" : "";
        return new JournalRefusedException(
            JournalRefusal.Configuration,
            $"Journal '{path}' was written under another configuration (its commands name instruments and sessions by position, "
            + $"and the day's ClOrdID limit decides what they did): {differences}{more}. "
            + "Restore the journal's configuration (new instruments and sessions may only be added at the end), "
            + "or move the journal away to begin a new one.");
    }

    /// <summary>Encodes one record into the mapped file. Call <see cref="CommitBatch"/> at batch end.</summary>
    public void Append(in Command command, long sequence)
    {
        int recordSize = JournalFormat.RecordSize;
        _file.EnsureMapped(_position + recordSize);
        JournalFormat.WriteRecord(new Span<byte>(_file.Base + _position, recordSize), sequence, in command);
        _position += recordSize;
        _lastAppended = sequence;
    }

    /// <summary>Ends a batch: syncs per policy, then advances <see cref="DurableSequence"/>.</summary>
    public void CommitBatch()
    {
        _lastWritten = _lastAppended;
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

    /// <summary>
    /// Makes the pages the next record will be written to writable now, so that record's copy does not take the page
    /// fault (~15 µs on the VM measured; see README) on the order path; returns false, at the cost of a compare, when
    /// they already are (<see cref="AppendMappedFile.PrepareAhead"/>, which also says when a preparation lapses). For the
    /// writer thread at a moment no order waits on it: when the polling thread finds nothing to do, or after a batch's
    /// acknowledgements are released (a batch already waiting then waits for the fault instead of taking it itself: no
    /// gain, no loss).
    /// </summary>
    public bool PrepareNextRecord() => _file.PrepareAhead(_position, JournalFormat.RecordSize);

    /// <summary>Under <see cref="FsyncPolicy.Periodic"/>, the interval <see cref="SyncIfDue"/> keeps; null under the other policies.</summary>
    public TimeSpan? PeriodicSyncInterval { get; }

    /// <summary>
    /// Under <see cref="FsyncPolicy.Periodic"/>, syncs committed records the interval has passed for; false when there
    /// was nothing to do. <see cref="CommitBatch"/> syncs only when a batch comes, so after the last batch before a pause
    /// this is what bounds the power-loss window: the Inline venue's polling thread calls it in idle passes, the Threaded
    /// venue's journaller thread when it has waited an interval for nothing (<see cref="Pipeline.EventProcessor.SetIdleWork"/>).
    /// </summary>
    public bool SyncIfDue()
    {
        if (_policy != FsyncPolicy.Periodic || SyncedSequence.Value == _lastWritten ||
            Stopwatch.GetTimestamp() - _lastSyncTimestamp < _fsyncIntervalTicks)
        {
            return false;
        }

        Sync();
        return true;
    }

    /// <summary>Forces everything written so far to stable storage.</summary>
    public void Sync()
    {
        _lastWritten = _lastAppended;
        if (SyncedSequence.Value != _lastWritten)
        {
            _file.Sync();
        }

        _lastSyncTimestamp = Stopwatch.GetTimestamp();
        SyncedSequence.SetValue(_lastWritten);
        DurableSequence.SetValue(_lastWritten);
    }

    /// <summary>Syncs, unmaps, trims the unused tail and closes the file.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _file.Close(_position, sync: true);
        SyncedSequence.SetValue(_lastAppended);
        DurableSequence.SetValue(_lastAppended);
    }
}
