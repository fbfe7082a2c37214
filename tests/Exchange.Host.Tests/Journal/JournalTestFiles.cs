using System.Buffers.Binary;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Storage;
using Exchange.Host.Journal;

namespace Exchange.Host.Tests.Journal;

/// <summary>A temporary journal path, deleted with its directory on dispose.</summary>
internal sealed class TempJournal : IDisposable
{
    public TempJournal()
    {
        Directory = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "exchange-journal-tests", Guid.NewGuid().ToString("N"));
        System.IO.Directory.CreateDirectory(Directory);
        Path = System.IO.Path.Combine(Directory, "commands.journal");
    }

    public string Directory { get; }

    public string Path { get; }

    public void Dispose()
    {
        try
        {
            System.IO.Directory.Delete(Directory, recursive: true);
        }
        catch (IOException)
        {
            // Best effort: a leftover temp file must not fail a test.
        }
    }
}

internal static class JournalTestData
{
    /// <summary>Seven instruments and five sessions, as many as <see cref="CommandFor"/> names.</summary>
    public static JournalConfiguration Configuration { get; } = ConfigurationOf(["AAPL", "AMZN", "GOOG", "MSFT", "NVDA", "TSLA", "META"], 5);

    /// <summary>Where records begin in a journal written with a small configuration (such as <see cref="Configuration"/>).</summary>
    public static long DataStart => JournalFormat.DataStart(JournalFormat.MinConfigurationSlotBytes);

    /// <summary>Instruments named <paramref name="symbols"/> (tick 0.01 at 4 decimals) and sessions EXCH->CLIENT0.. .</summary>
    public static JournalConfiguration ConfigurationOf(string[] symbols, int sessions) => new(
        [.. symbols.Select((symbol, i) => new Instrument(i, symbol, 4, 100, 1, 100, 20_000_000, 1_000_000_000))],
        [.. Enumerable.Range(0, sessions).Select(i => new JournalSession("EXCH", "CLIENT" + i.ToString(System.Globalization.CultureInfo.InvariantCulture)))],
        MaxClOrdIdsPerDay);

    /// <summary>The day's ClOrdID limit the test configurations record.</summary>
    public const int MaxClOrdIdsPerDay = 1 << 20;

    /// <summary>The file offset of record <paramref name="index"/>.</summary>
    public static long RecordOffset(long index) => DataStart + (index * JournalFormat.RecordSize);

    /// <summary>A deterministic, field-rich command for index <paramref name="i"/>.</summary>
    public static Command CommandFor(long i)
    {
        return new Command
        {
            Type = (CommandType)(1 + (i % 3)),
            Side = i % 2 == 0 ? Side.Buy : Side.Sell,
            OrderType = OrderType.Limit,
            TimeInForce = TimeInForce.Day,
            InstrumentId = (int)(i % 7),
            OwnerId = (int)(i % 5),
            Price = 1_000_000 + (i * 37),
            Quantity = 100 + (i % 1000),
            Timestamp = 1_700_000_000_000_000_000 + i,
            Sequence = i,
            ClOrdId = ClOrdId.From("ORD-" + i.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            OrigClOrdId = i % 3 == 0 ? default : ClOrdId.From("ORIG-" + i.ToString(System.Globalization.CultureInfo.InvariantCulture)),
        };
    }

    /// <summary>Writes commands 0..count-1 with sequence = index, committing every <paramref name="batch"/> records.</summary>
    public static void Write(string path, long count, int batch = 10, JournalOptions? options = null, long firstIndex = 0, JournalConfiguration? configuration = null)
    {
        using JournalWriter writer = JournalWriter.Open(path, options ?? new JournalOptions { FsyncPolicy = FsyncPolicy.Never }, configuration ?? Configuration, out _);
        for (long i = firstIndex; i < firstIndex + count; i++)
        {
            Command command = CommandFor(i);
            writer.Append(in command, i);
            if ((i + 1) % batch == 0)
            {
                writer.CommitBatch();
            }
        }

        writer.CommitBatch();
    }

    /// <summary><see cref="Write"/>s <paramref name="count"/> records, then cuts <paramref name="bytes"/> off the last one (a torn write).</summary>
    public static void WriteTorn(string path, long count, int bytes)
    {
        Write(path, count);
        using var file = new FileStream(path, FileMode.Open);
        file.SetLength(file.Length - bytes);
    }

    /// <summary>Flips one bit of the byte at <paramref name="offset"/>, as a disk or a stray write might.</summary>
    /// <summary>Rewrites the prefix's format version (and its CRC), as a build of that version would have written it.</summary>
    public static void MarkVersion(string path, int version)
    {
        byte[] bytes = File.ReadAllBytes(path);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(8), version);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(28), Crc32.Compute(bytes.AsSpan(0, 28)));
        File.WriteAllBytes(path, bytes);
    }

    public static int ReadVersion(string path) => BinaryPrimitives.ReadInt32LittleEndian(File.ReadAllBytes(path).AsSpan(8, 4));

    public static void FlipBit(string path, long offset)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        file.Position = offset;
        int value = file.ReadByte();
        file.Position = offset;
        file.WriteByte((byte)(value ^ 0x40));
    }

    /// <summary>Overwrites <paramref name="count"/> bytes at <paramref name="offset"/> with zeros.</summary>
    public static void Zero(string path, long offset, int count)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        file.Position = offset;
        file.Write(new byte[count]);
    }

    public static List<(long Sequence, Command Command)> ReadAll(string path, out JournalReader finished)
    {
        var records = new List<(long, Command)>();
        finished = JournalReader.Open(path);
        while (finished.TryRead(out long sequence, out Command command))
        {
            records.Add((sequence, command));
        }

        finished.Dispose();
        return records;
    }

    public static void AssertSame(Command expected, Command actual)
    {
        Xunit.Assert.Equal(expected.Type, actual.Type);
        Xunit.Assert.Equal(expected.Side, actual.Side);
        Xunit.Assert.Equal(expected.InstrumentId, actual.InstrumentId);
        Xunit.Assert.Equal(expected.OwnerId, actual.OwnerId);
        Xunit.Assert.Equal(expected.Price, actual.Price);
        Xunit.Assert.Equal(expected.Quantity, actual.Quantity);
        Xunit.Assert.Equal(expected.Timestamp, actual.Timestamp);
        Xunit.Assert.Equal(expected.Sequence, actual.Sequence);
        Xunit.Assert.Equal(expected.ClOrdId, actual.ClOrdId);
        Xunit.Assert.Equal(expected.OrigClOrdId, actual.OrigClOrdId);
    }
}
