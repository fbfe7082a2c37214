using System.Globalization;
using System.IO.Compression;

namespace Exchange.Core.Tests.Lobster;

/// <summary>One row of a LOBSTER message file (see LOBSTER_SampleFiles_ReadMe.txt).</summary>
/// <param name="TimeNanoseconds">Time after midnight, parsed exactly from the decimal seconds.</param>
/// <param name="Type">1 submit, 2 partial cancel, 3 delete, 4 visible execution, 5 hidden execution, 7 halt.</param>
/// <param name="OrderId">The exchange's order reference.</param>
/// <param name="Size">Shares.</param>
/// <param name="Price">Dollars × 10000 (4 price decimals).</param>
/// <param name="Direction">1 buy limit order, -1 sell limit order.</param>
public readonly record struct LobsterMessage(long TimeNanoseconds, int Type, long OrderId, long Size, long Price, int Direction);

/// <summary>The real best level after one message (first four columns of the orderbook file).</summary>
/// <remarks>An empty side shows as price 9999999999 (ask) or -9999999999 (bid) with size 0.</remarks>
public readonly record struct LobsterTop(long AskPrice, long AskSize, long BidPrice, long BidSize);

/// <summary>
/// The message file of one LOBSTER sample archive and, row for row, the real top of book after each message.
/// </summary>
public sealed record LobsterFile(string Symbol, string EntryName, IReadOnlyList<LobsterMessage> Messages, IReadOnlyList<LobsterTop> Tops);

/// <summary>
/// Reads LOBSTER sample archives straight from their zip (in memory; nothing is extracted to disk). Self-contained
/// (BCL only) so the benchmarks can share it. Not a hot path: it allocates freely.
/// </summary>
public static class LobsterReader
{
    /// <summary>
    /// Walks up from the test binaries to the folder holding shared/data/lobster (locally /work/shared beside the
    /// worktree, in CI ../shared beside the clone). Null when the data is absent.
    /// </summary>
    public static string? FindDataDirectory()
    {
        for (DirectoryInfo? dir = new(AppContext.BaseDirectory); dir != null; dir = dir.Parent)
        {
            foreach (string candidate in new[] { Path.Combine(dir.FullName, "shared", "data", "lobster"), Path.Combine(dir.FullName, "data", "lobster") })
            {
                if (Directory.Exists(candidate) && Directory.EnumerateFiles(candidate, "*.zip").Any())
                {
                    return candidate;
                }
            }
        }

        return null;
    }

    /// <summary>Every message file of every archive in <paramref name="directory"/>, ordered by archive name.</summary>
    public static IReadOnlyList<LobsterFile> ReadAll(string directory) =>
        Directory.EnumerateFiles(directory, "*.zip").Order(StringComparer.Ordinal).SelectMany(ReadZip).ToList();

    public static IEnumerable<LobsterFile> ReadZip(string zipPath)
    {
        using ZipArchive archive = ZipFile.OpenRead(zipPath);
        var files = new List<LobsterFile>();
        foreach (ZipArchiveEntry entry in archive.Entries.Where(e => e.Name.Contains("_message_", StringComparison.Ordinal)).OrderBy(e => e.Name, StringComparer.Ordinal))
        {
            ZipArchiveEntry book = archive.GetEntry(entry.FullName.Replace("_message_", "_orderbook_", StringComparison.Ordinal))
                ?? throw new InvalidDataException($"{zipPath}: no orderbook file for {entry.Name}");
            List<LobsterMessage> messages;
            using (Stream stream = entry.Open())
            {
                messages = ReadMessages(stream);
            }

            List<LobsterTop> tops;
            using (Stream stream = book.Open())
            {
                tops = ReadTops(stream);
            }

            if (tops.Count != messages.Count)
            {
                throw new InvalidDataException($"{zipPath}: {messages.Count} messages but {tops.Count} orderbook rows");
            }

            files.Add(new LobsterFile(entry.Name[..entry.Name.IndexOf('_', StringComparison.Ordinal)], entry.Name, messages, tops));
        }

        return files;
    }

    /// <summary>Reads the first level (ask price, ask size, bid price, bid size) of each orderbook row.</summary>
    public static List<LobsterTop> ReadTops(Stream csv)
    {
        using var reader = new StreamReader(csv);
        var tops = new List<LobsterTop>();
        Span<Range> fields = stackalloc Range[5];
        while (reader.ReadLine() is { } line)
        {
            if (line.Length == 0)
            {
                continue;
            }

            ReadOnlySpan<char> text = line;
            if (text.Split(fields, ',') < 4)
            {
                throw new InvalidDataException($"LOBSTER orderbook row {tops.Count + 1} is malformed");
            }

            tops.Add(new LobsterTop(ParseLong(text[fields[0]]), ParseLong(text[fields[1]]), ParseLong(text[fields[2]]), ParseLong(text[fields[3]])));
        }

        return tops;
    }

    private static long ParseLong(ReadOnlySpan<char> text) => long.Parse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);

    public static List<LobsterMessage> ReadMessages(Stream csv)
    {
        using var reader = new StreamReader(csv);
        var messages = new List<LobsterMessage>();
        int lineNumber = 0;
        while (reader.ReadLine() is { } line)
        {
            lineNumber++;
            if (line.Length == 0)
            {
                continue;
            }

            if (!TryParse(line, out LobsterMessage message))
            {
                throw new InvalidDataException($"LOBSTER line {lineNumber} is malformed: '{line}'");
            }

            messages.Add(message);
        }

        return messages;
    }

    /// <summary>Parses "time,type,id,size,price,direction"; time is decimal seconds with up to 9 fraction digits.</summary>
    public static bool TryParse(ReadOnlySpan<char> line, out LobsterMessage message)
    {
        message = default;
        Span<Range> fields = stackalloc Range[7];
        if (line.Split(fields, ',') != 6 ||
            !TryParseNanoseconds(line[fields[0]], out long time) ||
            !int.TryParse(line[fields[1]], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out int type) ||
            !long.TryParse(line[fields[2]], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out long id) ||
            !long.TryParse(line[fields[3]], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out long size) ||
            !long.TryParse(line[fields[4]], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out long price) ||
            !int.TryParse(line[fields[5]], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out int direction))
        {
            return false;
        }

        message = new LobsterMessage(time, type, id, size, price, direction);
        return true;
    }

    private static bool TryParseNanoseconds(ReadOnlySpan<char> text, out long nanoseconds)
    {
        nanoseconds = 0;
        int dot = text.IndexOf('.');
        ReadOnlySpan<char> whole = dot < 0 ? text : text[..dot];
        ReadOnlySpan<char> fraction = dot < 0 ? [] : text[(dot + 1)..];
        if (fraction.Length > 9 || !long.TryParse(whole, NumberStyles.None, CultureInfo.InvariantCulture, out long seconds))
        {
            return false;
        }

        long fractionValue = 0;
        foreach (char c in fraction)
        {
            if (c is < '0' or > '9')
            {
                return false;
            }

            fractionValue = (fractionValue * 10) + (c - '0');
        }

        for (int i = fraction.Length; i < 9; i++)
        {
            fractionValue *= 10;
        }

        nanoseconds = (seconds * 1_000_000_000) + fractionValue;
        return true;
    }
}
