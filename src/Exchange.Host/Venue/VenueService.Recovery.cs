using System.Diagnostics;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Gateway;
using Exchange.Host.Configuration;
using Exchange.Host.Journal;
using Microsoft.Extensions.Logging;

namespace Exchange.Host.Venue;

// Start-up recovery: replay the journal into the engine and the session stores before any connection is accepted.
internal sealed partial class VenueService
{
    /// <summary>
    /// Journals and runs a <see cref="CommandType.ReserveEventAndOrderIds"/> command when <paramref name="through"/> is
    /// above 0: a session store holds reports of events the journal lost, so new events are numbered past them and new
    /// orders' ids skip past those the lost orders had (their ExecIDs and OrderIDs would repeat otherwise). Journalled,
    /// so every later replay numbers events and orders the same way.
    /// </summary>
    /// <param name="latestReplayed">
    /// The latest command time in the journal: the command carries it rather than the clock's, so that it never dates
    /// from a later day than the commands before it (the reservation is journalled before the start-up day roll).
    /// </param>
    private void ReserveEventAndOrderIds(long through, long? latestReplayed)
    {
        if (through <= 0)
        {
            return;
        }

        var command = new Command { Type = CommandType.ReserveEventAndOrderIds, Quantity = through, Timestamp = latestReplayed ?? _clock.UtcNowNanos };
        if (!_ingress!.TryPublish(in command))
        {
            throw new InvalidOperationException("The venue could not journal the reservation of event ids at start.");
        }

        LogEventIdsReserved(_logger, through);
    }

    /// <summary>
    /// Opens the journal and replays it into the engine, handing every event to <paramref name="gateway"/> so each
    /// session stores the reports its store lacks; returns the last journalled sequence (-1 when empty) and the
    /// greatest command timestamp replayed (null when empty), which says which trading day the journal ends in. The
    /// journal is opened with the configured instruments and sessions, so one written under another order is refused.
    /// </summary>
    /// <param name="reserveEventIdsThrough">
    /// Above 0 when a session store holds reports of events past the journal's end: new events must be numbered above
    /// it (see <see cref="ReserveEventAndOrderIds"/>).
    /// </param>
    /// <param name="journalDay">
    /// A time in the trading day the engine was in at the journal's end: the last NewTradingDay command's, or the earliest
    /// command's when the journal never rolled; null for an empty journal. Not the latest command's time: an order
    /// stamped just after a day boundary can be journalled before the roll is, and a crash between the two must not make
    /// the next start believe the roll happened.
    /// </param>
    /// <param name="stopRequested">
    /// Checked before each record: a stop asked for during a long replay ends it there, rather than after the whole
    /// journal (systemd kills a unit that has not stopped within TimeoutStopSec). Stopping part way leaves nothing to
    /// repair: the journal is not written before the scan ends, and each session store got only reports it lacked, so
    /// the next start's replay adds the rest.
    /// </param>
    private long Recover(
        BookPublisher books, IFixGateway gateway, IReadOnlyList<Instrument> instruments, CancellationToken stopRequested, out long? latestTimestamp,
        out long? journalDay, out long reserveEventIdsThrough)
    {
        string path = Path.GetFullPath(_options.Journal.Path);
        string? directory = Path.GetDirectoryName(path);
        if (!string.IsNullOrEmpty(directory))
        {
            Directory.CreateDirectory(directory);
        }

        var journalOptions = new Journal.JournalOptions
        {
            FsyncPolicy = Enum.Parse<FsyncPolicy>(_options.Journal.Fsync, ignoreCase: true),
            FsyncInterval = TimeSpan.FromMilliseconds(_options.Journal.FsyncIntervalMilliseconds),
        };

        // One pass over the journal: every valid record is replayed into the engine as the writer's open scans it.
        long started = Stopwatch.GetTimestamp();
        long replayed = 0;
        long reports = 0;
        long lastEventId = 0;
        long latest = long.MinValue;
        long earliest = long.MaxValue;
        long? lastDayStarted = null;
        VenueEngine engine = _engine!;
        var configuration = new JournalConfiguration(
            instruments,
            _options.Sessions.Select(s => new JournalSession(s.SenderCompId, s.TargetCompId)).ToArray(),
            _options.Pipeline.MaxClOrdIdsPerDay);
        SkippedRecords.TryParse(_options.Journal.SkipRecords, out SkippedRecords skip); // validated at start
        JournalSkipList skipped = JournalSkipList.Load(path);

        // Before the replay, which stores reports in the session stores as it goes: a start refused after that must not
        // leave them computed from a skip it then refused.
        RefuseSkipsPastTheEnd(path, skip, JournalReader.HighestPossibleSequence(path));
        _journal = JournalWriter.Open(path, journalOptions, configuration, (long sequence, in Command command) =>
        {
            if (stopRequested.IsCancellationRequested)
            {
                // Said here because the next start's account of reports stored counts only those it adds itself.
                LogReplayCutShort(_logger, replayed, sequence, reports);
                stopRequested.ThrowIfCancellationRequested();
            }

            if (command.Sequence != sequence)
            {
                // A valid CRC over the wrong number: written so by a defective build, or pieced together by hand. Replayed,
                // it could misnumber everything after it; refused like a corrupt record, with nothing written.
                throw new JournalRefusedException(
                    JournalRefusal.Corruption,
                    $"Journal '{path}': record {sequence} holds a command numbered {command.Sequence}. The venue will not start, and "
                    + "the file was left as it is: restore it from a copy, or move it away to begin a new journal (which loses every resting order).");
            }

            if (skipped.Skips(sequence, in command))
            {
                LogRecordSkippedBefore(_logger, sequence, Describe(command, instruments), skipped.Path);
                return;
            }

            if (skip.TryGet(sequence, out uint checksum))
            {
                uint actual = JournalSkipList.ChecksumOf(in command);
                if (actual != checksum)
                {
                    throw new JournalRefusedException(
                        JournalRefusal.Configuration,
                        $"{VenueOptions.SectionName}:Journal:SkipRecords names record {sequence} with checksum {checksum:x8}, but journal '{path}' "
                        + $"has {SkippedRecords.Item(sequence, actual)} ({Describe(command, instruments)}): the setting is for another command. "
                        + "Give a record as the refusal to replay it printed it.");
                }

                // Recorded before the next record is replayed, so no report the replay stores from here on can outlive it.
                skipped.AddAndSave(sequence, actual, path);
                LogRecordSkipped(_logger, sequence, Describe(command, instruments));
                LogSkipRecorded(_logger, sequence, skipped.Path);
                return;
            }

            scoped ReadOnlySpan<EngineEvent> events;
            try
            {
                events = engine.Engine.Process(in command);
            }
            catch (Exception exception)
            {
                // The engine threw on this command live too, most likely (the matcher then stopped the venue at it), and
                // will on every replay: starting without it is the operator's decision, not something to do silently.
                LogReplayFault(_logger, sequence, exception);
                throw ReplayRefused(path, sequence, JournalSkipList.ChecksumOf(in command), Describe(command, instruments), exception);
            }

            foreach (ref readonly EngineEvent engineEvent in events)
            {
                if (gateway.RecoverEvent(in engineEvent))
                {
                    reports++;
                }

                lastEventId = engineEvent.EventId;
            }

            if (command.Type is CommandType.ReserveEventIds or CommandType.ReserveEventAndOrderIds)
            {
                // Ids reserved by an earlier start count as used, even before any event takes the next one.
                lastEventId = Math.Max(lastEventId, command.Quantity);
            }

            if (command.Type == CommandType.NewTradingDay)
            {
                lastDayStarted = command.Timestamp;
            }

            latest = Math.Max(latest, command.Timestamp);
            earliest = Math.Min(earliest, command.Timestamp);
            replayed++;
        }, out JournalScan scan, beforeWriting: read =>
        {
            RefuseSkipsPastTheEnd(path, skip, read.LastSequence);
            skipped.CheckWithin(read.LastSequence);
        });

        long highestStored = gateway.CompleteRecovery(lastEventId);
        reserveEventIdsThrough = highestStored > lastEventId ? highestStored : 0;
        JournalScan = scan;
        if (scan.Status == JournalReadStatus.Clean)
        {
            LogJournalOpened(_logger, path, scan.Describe());
        }
        else
        {
            LogJournalDropped(_logger, path, scan.Describe());
        }

        books.PublishAll(scan.LastSequence);
        RecoveredCommands = replayed;
        RecoveredReports = reports;
        latestTimestamp = replayed == 0 ? null : latest;
        journalDay = replayed == 0 ? null : lastDayStarted ?? earliest;
        LogReplayed(_logger, replayed, Stopwatch.GetElapsedTime(started).TotalMilliseconds, _engine!.Engine.RestingOrderCount, reports);
        return scan.LastSequence;
    }

    /// <summary>
    /// A skip of a record the journal does not hold yet would silently drop whichever command is journalled under that
    /// number later (an acknowledged order, say), on the next start after it.
    /// </summary>
    private static void RefuseSkipsPastTheEnd(string path, SkippedRecords skip, long lastSequence)
    {
        // Called with an upper bound before the replay (the file's size) and with the journal's real end after it.
        long[] pastEnd = skip.Sequences.Where(sequence => sequence > lastSequence).ToArray();
        if (pastEnd.Length != 0)
        {
            throw new JournalRefusedException(
                JournalRefusal.Configuration,
                $"{VenueOptions.SectionName}:Journal:SkipRecords names record(s) {string.Join(",", pastEnd)}, but journal '{path}' "
                + $"holds none past record {lastSequence}: a command journalled under that number later would be skipped on a later start. "
                + "Remove them from the setting.");
        }
    }

    private static JournalRefusedException ReplayRefused(string path, long sequence, uint checksum, string command, Exception exception) =>
        new(
            JournalRefusal.ReplayFault,
            $"Journal '{path}': replaying record {sequence} ({command}) made the engine throw {exception.GetType().Name}: "
            + $"{exception.Message}. The venue will not start, as it cannot rebuild its state past that record; the file was left "
            + "as it is (keep a copy: it reproduces a defect). To start without that command, add "
            + $"{SkippedRecords.Item(sequence, checksum)} to {VenueOptions.SectionName}:Journal:SkipRecords: it is then never applied, by that start and every later one "
            + $"(the skip is recorded in '{JournalSkipList.PathFor(path)}'). If the venue stopped at "
            + "this record while running (exit code 3, a matcher fault in its log), no report of it was sent.",
            exception);

    /// <summary>What a journalled command was, for an operator deciding whether to skip it.</summary>
    private string Describe(in Command command, IReadOnlyList<Instrument> instruments)
    {
        string session = (uint)command.OwnerId < (uint)_options.Sessions.Count
            ? $"{_options.Sessions[command.OwnerId].SenderCompId}->{_options.Sessions[command.OwnerId].TargetCompId}"
            : $"owner {command.OwnerId}";
        string instrument = (uint)command.InstrumentId < (uint)instruments.Count ? instruments[command.InstrumentId].Symbol : $"instrument {command.InstrumentId}";
        return command.Type is CommandType.NewTradingDay or CommandType.ReserveEventIds or CommandType.ReserveEventAndOrderIds
            ? $"{command.Type}"
            : $"{command.Type} from {session}, ClOrdID {command.ClOrdId}, {instrument}";
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "Journal record {Sequence} ({Command}) skipped, as Venue:Journal:SkipRecords says: it is not applied")]
    private static partial void LogRecordSkipped(ILogger logger, long sequence, string command);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Journal record {Sequence} ({Command}) skipped, as an earlier start recorded in {File}: it is not applied")]
    private static partial void LogRecordSkippedBefore(ILogger logger, long sequence, string command, string file);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Journal record {Sequence} skipped for good: recorded in {File}, so every later start skips it too, with or without Venue:Journal:SkipRecords")]
    private static partial void LogSkipRecorded(ILogger logger, long sequence, string file);

    [LoggerMessage(Level = LogLevel.Critical, Message = "Replaying journal record {Sequence} made the engine throw")]
    private static partial void LogReplayFault(ILogger logger, long sequence, Exception exception);

    [LoggerMessage(Level = LogLevel.Information, Message = "Journal {Path}: {Scan}")]
    private static partial void LogJournalOpened(ILogger logger, string path, string scan);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Journal {Path}: {Scan}")]
    private static partial void LogJournalDropped(ILogger logger, string path, string scan);

    [LoggerMessage(Level = LogLevel.Information, Message = "Replayed {Count} journalled commands in {Milliseconds:F1} ms; {Resting} orders resting; {Reports} reports stored for sessions that lacked them")]
    private static partial void LogReplayed(ILogger logger, long count, double milliseconds, int resting, long reports);

    [LoggerMessage(Level = LogLevel.Information, Message = "Journal replay stopped as asked after {Count} commands, before record {Sequence}; {Reports} reports stored for sessions that lacked them, and the next start replays the whole journal again")]
    private static partial void LogReplayCutShort(ILogger logger, long count, long sequence, long reports);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Session stores hold reports of events up to {EventId} that the journal lost; new events are numbered above it")]
    private static partial void LogEventIdsReserved(ILogger logger, long eventId);
}
