using System.Globalization;

namespace Exchange.Host.Journal;

/// <summary>
/// Journal records an operator has told the venue not to replay (Venue:Journal:SkipRecords): "sequence:checksum" items
/// separated by commas, each as the <see cref="JournalRefusal.ReplayFault"/> refusal prints it. The checksum
/// (<see cref="JournalSkipList.ChecksumOf"/>) ties an item to the command the refusal named, so a mistyped sequence, or a
/// setting meant for another venue's journal, is refused instead of skipping a command that was acknowledged.
/// </summary>
internal sealed class SkippedRecords
{
    public static readonly SkippedRecords None = new(new SortedDictionary<long, uint>());

    private readonly SortedDictionary<long, uint> _entries;

    private SkippedRecords(SortedDictionary<long, uint> entries) => _entries = entries;

    /// <summary>The sequences in ascending order.</summary>
    public IReadOnlyCollection<long> Sequences => _entries.Keys;

    /// <summary>True when record <paramref name="sequence"/> is named, with the checksum the item gives.</summary>
    public bool TryGet(long sequence, out uint checksum)
    {
        checksum = 0;
        return _entries.Count != 0 && _entries.TryGetValue(sequence, out checksum);
    }

    /// <summary>Parses "", "17:1a2b3c4d" or "17:1a2b3c4d, 18:0badf00d"; false for anything else.</summary>
    public static bool TryParse(string? text, out SkippedRecords records)
    {
        records = None;
        if (string.IsNullOrWhiteSpace(text))
        {
            return true;
        }

        var entries = new SortedDictionary<long, uint>();
        foreach (string item in text.Split(','))
        {
            string[] parts = item.Trim().Split(':');
            if (parts.Length != 2 || parts[1].Length != 8 ||
                !long.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out long sequence) ||
                !uint.TryParse(parts[1], NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out uint checksum) ||
                !entries.TryAdd(sequence, checksum))
            {
                return false;
            }
        }

        records = new SkippedRecords(entries);
        return true;
    }

    /// <summary>An item as the setting takes it.</summary>
    public static string Item(long sequence, uint checksum) => string.Create(CultureInfo.InvariantCulture, $"{sequence}:{checksum:x8}");
}
