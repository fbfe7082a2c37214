using System.Globalization;
using Exchange.Core.Domain;

namespace Exchange.Host.Journal;

/// <summary>How the configuration a journal was written with relates to the one the venue starts with.</summary>
internal enum ConfigurationRelation
{
    /// <summary>Same instruments and sessions in the same order.</summary>
    Same,

    /// <summary>
    /// Every recorded instrument and session is still at its position, and new ones follow at the end: the journal's
    /// commands keep their meaning, and the journal records the longer lists from now on.
    /// </summary>
    Extended,

    /// <summary>A recorded instrument or session changed, moved or went: replaying would misroute commands.</summary>
    Differs,
}

/// <summary>The comparison of a journal's recorded configuration with the current one, in words an operator can act on.</summary>
/// <param name="Relation">Same, extended at the end, or different.</param>
/// <param name="Differences">For <see cref="ConfigurationRelation.Differs"/>: one sentence per changed, moved or missing entry.</param>
/// <param name="Additions">For <see cref="ConfigurationRelation.Extended"/>: what was added, for the log.</param>
internal sealed record JournalConfigurationMatch(ConfigurationRelation Relation, IReadOnlyList<string> Differences, string Additions)
{
    /// <summary>Compares position by position, since a command names its instrument and owner by position.</summary>
    public static JournalConfigurationMatch Compare(JournalConfiguration recorded, JournalConfiguration current)
    {
        var differences = new List<string>();
        var additions = new List<string>();
        CompareLists(recorded.Instruments, current.Instruments, "instrument", DescribeInstrument, InstrumentChange, differences, additions);
        CompareLists(recorded.Sessions, current.Sessions, "session", static s => s.ToString(), static (_, _) => null, differences, additions);
        if (recorded.MaxClOrdIdsPerDay != current.MaxClOrdIdsPerDay)
        {
            // Unlike a list, the limit cannot grow safely: orders refused for want of ids would be accepted on replay.
            differences.Add($"MaxClOrdIdsPerDay was {recorded.MaxClOrdIdsPerDay}, the configuration now has {current.MaxClOrdIdsPerDay}");
        }

        if (differences.Count > 0)
        {
            return new JournalConfigurationMatch(ConfigurationRelation.Differs, differences, "");
        }

        return additions.Count > 0
            ? new JournalConfigurationMatch(ConfigurationRelation.Extended, [], string.Join("; ", additions))
            : new JournalConfigurationMatch(ConfigurationRelation.Same, [], "");
    }

    private static void CompareLists<T>(
        IReadOnlyList<T> recorded,
        IReadOnlyList<T> current,
        string noun,
        Func<T, string> describe,
        Func<T, T, string?> sameNameChange,
        List<string> differences,
        List<string> additions)
    {
        int common = Math.Min(recorded.Count, current.Count);
        for (int i = 0; i < common; i++)
        {
            T was = recorded[i];
            T now = current[i];
            if (EqualityComparer<T>.Default.Equals(was, now))
            {
                continue;
            }

            differences.Add(sameNameChange(was, now) is { } change
                ? $"{noun} {i} {change}"
                : $"{noun} {i} was {describe(was)}, the configuration now has {describe(now)} at {i}");
        }

        for (int i = common; i < recorded.Count; i++)
        {
            differences.Add($"{noun} {i} was {describe(recorded[i])}, the configuration has no {noun} {i}");
        }

        if (current.Count > recorded.Count)
        {
            additions.Add($"{noun}s {recorded.Count}..{current.Count - 1} added ({string.Join(", ", current.Skip(recorded.Count).Select(describe))})");
        }
    }

    private static string DescribeInstrument(Instrument instrument) => instrument.Symbol;

    // Same symbol, other rules: name the rules that changed, in the configuration's own units.
    private static string? InstrumentChange(Instrument was, Instrument now)
    {
        if (was.Symbol != now.Symbol)
        {
            return null;
        }

        var changes = new List<string>();
        Field(changes, "PriceDecimals", was.PriceDecimals, now.PriceDecimals);
        if (was.PriceDecimals == now.PriceDecimals)
        {
            Price(changes, "TickSize", was.TickSize, now.TickSize, now.PriceDecimals);
            Price(changes, "MinPrice", was.MinPrice, now.MinPrice, now.PriceDecimals);
            Price(changes, "MaxPrice", was.MaxPrice, now.MaxPrice, now.PriceDecimals);
        }

        Field(changes, "LotSize", was.LotSize, now.LotSize);
        Field(changes, "MaxOrderQuantity", was.MaxOrderQuantity, now.MaxOrderQuantity);
        return $"({was.Symbol}) changed: {string.Join(", ", changes)}";
    }

    private static void Field(List<string> changes, string name, long was, long now)
    {
        if (was != now)
        {
            changes.Add(string.Create(CultureInfo.InvariantCulture, $"{name} was {was}, now {now}"));
        }
    }

    private static void Price(List<string> changes, string name, long was, long now, int decimals)
    {
        if (was != now)
        {
            changes.Add($"{name} was {Decimal(was, decimals)}, now {Decimal(now, decimals)}");
        }
    }

    private static string Decimal(long units, int decimals) =>
        (units / (decimal)Math.Pow(10, decimals)).ToString("0.##########", CultureInfo.InvariantCulture);
}
