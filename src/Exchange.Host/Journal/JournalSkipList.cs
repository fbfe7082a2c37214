using System.Globalization;
using System.Runtime.InteropServices;
using Exchange.Core.Commands;
using Exchange.Core.Storage;
using Microsoft.Win32.SafeHandles;

namespace Exchange.Host.Journal;

/// <summary>
/// The records a journal's replay skips, kept beside it (<c>journal.bin.skipped</c>) once a start has skipped them
/// (<see cref="SkippedRecords"/>, Venue:Journal:SkipRecords). A skip changes what the venue did from then on (later
/// commands' event and order ids, what clients were told), so every later replay must skip the same records whatever
/// the setting says by then; and only in this journal: each entry carries a checksum of the skipped command, and a
/// journal whose record differs, or that does not reach it, is refused rather than replayed differently.
/// </summary>
/// <remarks>One line per record, "sequence checksum" (decimal, 8 hex digits), after a comment line. Written whole to a
/// temporary file, synced and renamed over the old one, so a crash leaves the old list or the new one.</remarks>
internal sealed class JournalSkipList
{
    private readonly SortedDictionary<long, uint> _entries;

    private JournalSkipList(string path, SortedDictionary<long, uint> entries)
    {
        Path = path;
        _entries = entries;
    }

    /// <summary>The list's file.</summary>
    public string Path { get; }

    /// <summary>The file beside <paramref name="journalPath"/>.</summary>
    public static string PathFor(string journalPath) => journalPath + ".skipped";

    /// <summary>The list kept beside <paramref name="journalPath"/>; empty when there is none.</summary>
    public static JournalSkipList Load(string journalPath)
    {
        string path = PathFor(journalPath);
        var entries = new SortedDictionary<long, uint>();
        if (!File.Exists(path))
        {
            return new JournalSkipList(path, entries);
        }

        foreach (string line in File.ReadLines(path))
        {
            if (line.Length == 0 || line[0] == '#')
            {
                continue;
            }

            string[] parts = line.Split(' ');
            if (parts.Length != 2 ||
                !long.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out long sequence) ||
                !uint.TryParse(parts[1], NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out uint checksum) ||
                !entries.TryAdd(sequence, checksum))
            {
                throw new JournalRefusedException(
                    JournalRefusal.Format, $"'{path}', the records the journal's replay skips, has a line that is not \"sequence checksum\": '{line}'.");
            }
        }

        return new JournalSkipList(path, entries);
    }

    /// <summary>The checksum a skip is bound to: CRC-32 of the command's bytes as journalled.</summary>
    public static uint ChecksumOf(in Command command) =>
        Crc32.Compute(MemoryMarshal.AsBytes(new ReadOnlySpan<Command>(in command)));

    /// <summary>
    /// True when record <paramref name="sequence"/> is on the list; throws when it is, but with another command (the
    /// list was written for another journal).
    /// </summary>
    public bool Skips(long sequence, in Command command)
    {
        if (!_entries.TryGetValue(sequence, out uint expected))
        {
            return false;
        }

        uint actual = ChecksumOf(in command);
        if (actual != expected)
        {
            throw new JournalRefusedException(
                JournalRefusal.Configuration,
                $"'{Path}' says record {sequence} is skipped, for a command with checksum {expected:x8}, but the journal's record {sequence} "
                + $"has checksum {actual:x8}: the list was written for another journal. It belongs with the journal it was written for; "
                + "the venue will not start with the two mixed.");
        }

        return true;
    }

    /// <summary>Refuses a list that names records past the journal's end (<paramref name="lastSequence"/>): it belongs to another journal.</summary>
    public void CheckWithin(long lastSequence)
    {
        long[] pastEnd = _entries.Keys.Where(sequence => sequence > lastSequence).ToArray();
        if (pastEnd.Length != 0)
        {
            throw new JournalRefusedException(
                JournalRefusal.Configuration,
                $"'{Path}' says record(s) {string.Join(",", pastEnd)} are skipped, but the journal ends at record {lastSequence}: either the "
                + "list was written for another journal (one moved away with its list left behind?), which belongs with it, or this journal "
                + "lost its tail (a torn write, a truncation), and the skip with it: then remove those numbers from the list. The venue "
                + "will not start with the two disagreeing.");
        }
    }

    /// <summary>
    /// Adds a record a start has just skipped and writes the list durably, after syncing the journal at
    /// <paramref name="journalPath"/>: the list must never outlive the records it names (under Periodic or Never fsync
    /// they may still be in the page cache).
    /// </summary>
    public void AddAndSave(long sequence, uint checksum, string journalPath)
    {
        using (SafeFileHandle journal = File.OpenHandle(journalPath, FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite))
        {
            RandomAccess.FlushToDisk(journal);
        }

        _entries[sequence] = checksum;

        string temporary = Path + ".tmp";
        using (var file = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None))
        using (var writer = new StreamWriter(file))
        {
            writer.WriteLine("# Journal records every replay of this journal skips (Venue:Journal:SkipRecords); keep with the journal.");
            foreach ((long skipped, uint crc) in _entries)
            {
                writer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{skipped} {crc:x8}"));
            }

            writer.Flush();
            file.Flush(flushToDisk: true);
        }

        File.Move(temporary, Path, overwrite: true);
        DirectorySync.SyncParentOf(Path);
    }
}
