using System.Globalization;

namespace Exchange.Host.Journal;

/// <summary>
/// Journal records an operator has told the venue not to replay (Venue:Journal:SkipRecords): record sequence numbers,
/// separated by commas. The way past a record whose replay makes the engine throw (<see cref="JournalRefusal.ReplayFault"/>):
/// the command is never applied, as if it had not been received.
/// </summary>
internal sealed class SkippedRecords
{
    public static readonly SkippedRecords None = new([]);

    private readonly SortedSet<long> _sequences;

    private SkippedRecords(SortedSet<long> sequences) => _sequences = sequences;

    public int Count => _sequences.Count;

    /// <summary>The sequences in ascending order.</summary>
    public IReadOnlyCollection<long> Sequences => _sequences;

    public bool Contains(long sequence) => _sequences.Count != 0 && _sequences.Contains(sequence);

    /// <summary>Parses "", "17" or "17, 18"; false for anything else (a negative number, a word, an empty item).</summary>
    public static bool TryParse(string? text, out SkippedRecords records)
    {
        records = None;
        if (string.IsNullOrWhiteSpace(text))
        {
            return true;
        }

        var sequences = new SortedSet<long>();
        foreach (string item in text.Split(','))
        {
            if (!long.TryParse(item.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out long sequence))
            {
                return false;
            }

            sequences.Add(sequence);
        }

        records = new SkippedRecords(sequences);
        return true;
    }

    public override string ToString() => string.Join(",", _sequences);
}
