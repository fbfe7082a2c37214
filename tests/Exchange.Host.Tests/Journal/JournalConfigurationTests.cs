using System.Buffers.Binary;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Storage;
using Exchange.Host.Journal;
using Xunit;

namespace Exchange.Host.Tests.Journal;

/// <summary>
/// The journal records the instrument and session lists its commands' indices refer to, and refuses to open under
/// lists that give those indices another meaning.
/// </summary>
public class JournalConfigurationTests
{
    private static readonly string[] Symbols = ["AAPL", "AMZN", "GOOG", "MSFT", "NVDA", "TSLA", "META"];

    [Fact]
    public void ReorderedInstruments_AreRefused_NamingTheDifference_BeforeAnythingIsReplayed()
    {
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 5);
        byte[] before = File.ReadAllBytes(temp.Path);
        string[] swapped = [.. Symbols];
        (swapped[2], swapped[3]) = (swapped[3], swapped[2]);

        int replayed = 0;
        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(
            temp.Path, new JournalOptions(), JournalTestData.ConfigurationOf(swapped, 5), (long _, in Command _) => replayed++, out _));

        Assert.Equal(JournalRefusal.Configuration, error.Reason);
        Assert.Contains(temp.Path, error.Message, StringComparison.Ordinal);
        Assert.Contains("instrument 2 was GOOG, the configuration now has MSFT at 2; instrument 3 was MSFT, the configuration now has GOOG at 3", error.Message, StringComparison.Ordinal);
        Assert.Equal(0, replayed);
        Assert.Equal(before, File.ReadAllBytes(temp.Path));
    }

    [Fact]
    public void ARenamedSession_IsRefused_NamingIt()
    {
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 5);
        var sessions = JournalTestData.Configuration.Sessions.ToArray();
        sessions[1] = new JournalSession("EXCH", "CLIENT9");

        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(
            temp.Path, new JournalOptions(), new JournalConfiguration(JournalTestData.Configuration.Instruments, sessions, JournalTestData.MaxClOrdIdsPerDay), out _));

        Assert.Contains("session 1 was EXCH->CLIENT1, the configuration now has EXCH->CLIENT9 at 1", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(2)]
    [InlineData(-2)]
    public void AChangedClOrdIdLimit_IsRefused_EitherWay(int factor)
    {
        // Raised, an order once refused for want of ids would be accepted on replay; lowered, an accepted one refused.
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 5);
        int limit = factor > 0 ? JournalTestData.MaxClOrdIdsPerDay * factor : JournalTestData.MaxClOrdIdsPerDay / -factor;

        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(
            temp.Path, new JournalOptions(), new JournalConfiguration(JournalTestData.Configuration.Instruments, JournalTestData.Configuration.Sessions, limit), out _));

        Assert.Contains($"MaxClOrdIdsPerDay was {JournalTestData.MaxClOrdIdsPerDay}, the configuration now has {limit}", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AChangedTickSize_IsRefused_NamingTheRuleThatChanged()
    {
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 5);
        Instrument[] instruments = [.. JournalTestData.Configuration.Instruments];
        instruments[3] = instruments[3] with { TickSize = 500 };

        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(
            temp.Path, new JournalOptions(), new JournalConfiguration(instruments, JournalTestData.Configuration.Sessions, JournalTestData.MaxClOrdIdsPerDay), out _));

        Assert.Contains("instrument 3 (MSFT) changed: TickSize was 0.01, now 0.05", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ARemovedLastInstrument_IsRefused()
    {
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 5);

        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(
            temp.Path, new JournalOptions(), JournalTestData.ConfigurationOf(Symbols[..6], 5), out _));

        Assert.Contains("instrument 6 was META, the configuration has no instrument 6", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void InstrumentsAndSessionsAddedAtTheEnd_AreAccepted_AndRecorded_SoTheShorterListsAreRefusedAfterwards()
    {
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 5);
        JournalConfiguration extended = JournalTestData.ConfigurationOf([.. Symbols, "NFLX"], 6);

        var replayed = new List<long>();
        using (JournalWriter writer = JournalWriter.Open(
            temp.Path, new JournalOptions(), extended, (long sequence, in Command _) => replayed.Add(sequence), out JournalScan scan))
        {
            Assert.Equal([0, 1, 2, 3, 4], replayed);
            Assert.Contains("configuration extended at the end: instruments 7..7 added (NFLX); sessions 5..5 added (EXCH->CLIENT5)", scan.Describe(), StringComparison.Ordinal);
            Command onNewInstrument = JournalTestData.CommandFor(5) with { InstrumentId = 7, OwnerId = 5 };
            writer.Append(in onNewInstrument, 5);
            writer.CommitBatch();
        }

        using (JournalReader reader = JournalReader.Open(temp.Path))
        {
            Assert.Equal(2, reader.Header!.Generation);
            Assert.Equal(8, reader.Header.Configuration.Instruments.Count);
        }

        using (JournalWriter.Open(temp.Path, new JournalOptions(), extended, out JournalScan again))
        {
            Assert.Equal(6, again.Records);
            Assert.Equal("", again.ConfigurationChange);
        }

        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.Configuration, out _));
        Assert.Contains("instrument 7 was NFLX, the configuration has no instrument 7; session 5 was EXCH->CLIENT5, the configuration has no session 5", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnExtensionWhoseHeaderWriteWasTorn_FallsBackToThePreviousConfiguration()
    {
        // The new generation goes into the other slot; damage it (a crash in the middle of that write) and the journal
        // still opens, with the lists it had before. No command can name a new index yet: those follow the fsync.
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 5);
        using (JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.ConfigurationOf([.. Symbols, "NFLX"], 5), out _))
        {
        }

        using (JournalReader extended = JournalReader.Open(temp.Path))
        {
            Assert.Equal(2, extended.Header!.Generation);
            Assert.Equal(8, extended.Header.Configuration.Instruments.Count);
        }

        JournalTestData.FlipBit(temp.Path, JournalFormat.PrefixSize + 40); // generation 2 sits in slot 0

        using JournalReader reader = JournalReader.Open(temp.Path);
        Assert.Equal(1, reader.Header!.Generation);
        Assert.Equal(Symbols, reader.Header.Configuration.Instruments.Select(i => i.Symbol));
    }

    [Fact]
    public void AnEmptyJournal_TakesADifferentConfiguration()
    {
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 0);
        JournalConfiguration other = JournalTestData.ConfigurationOf(["IBM", "ORCL"], 1);

        using (JournalWriter.Open(temp.Path, new JournalOptions(), other, out JournalScan scan))
        {
            Assert.Contains("the journal held no records, so it now records the current configuration", scan.Describe(), StringComparison.Ordinal);
        }

        using JournalReader reader = JournalReader.Open(temp.Path);
        Assert.Equal(["IBM", "ORCL"], reader.Header!.Configuration.Instruments.Select(i => i.Symbol));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    public void AVersion1Journal_IsRefusedClearly_EvenAShortOne(int records)
    {
        using var temp = new TempJournal();
        File.WriteAllBytes(temp.Path, Version1Journal(records));
        byte[] before = File.ReadAllBytes(temp.Path);

        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.Configuration, out _));

        Assert.Equal(JournalRefusal.Format, error.Reason);
        Assert.Contains($"Journal '{temp.Path}': journal format version 1; this build reads versions 3 to {JournalFormat.Version} only", error.Message, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(temp.Path));
    }

    [Theory]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    [InlineData(7)]
    [InlineData(8)]
    [InlineData(9)]
    public void AnOlderJournal_IsReplayed_AndMarkedCurrent_SoAnOlderBuildRefusesItOnceAppended(int version)
    {
        // The current rules replay a version 3 to 8 journal (its cancels without their Side, see below) that never began a new trading day the same (none has
        // a reservation of order ids; version 3 to 6 no cancel on disconnect; version 3 to 5 no status requests; version 3 or 4 no refused-request commands;
        // version 3 no event-id reservations either, and its replaces leave OrdType and TimeInForce zero), but what this
        // build appends may not replay the same under the older rules.
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 5);
        JournalTestData.MarkVersion(temp.Path, version);
        Assert.Equal(version, JournalTestData.ReadVersion(temp.Path));

        var replayed = new List<long>();
        using (JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.Configuration, (long sequence, in Command _) => replayed.Add(sequence), out JournalScan scan))
        {
            Assert.Equal([0, 1, 2, 3, 4], replayed);
            Assert.Contains($"format version {version} marked {JournalFormat.Version}", scan.Describe(), StringComparison.Ordinal);
        }

        Assert.Equal(JournalFormat.Version, JournalTestData.ReadVersion(temp.Path));
        using (JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.Configuration, out JournalScan again))
        {
            Assert.Equal(5, again.Records);
            Assert.Equal("", again.ConfigurationChange);
        }
    }

    [Fact]
    public void A_version_5_journal_with_a_new_trading_day_after_a_gtc_order_is_refused_at_that_record_and_left_as_it_was()
    {
        // Under version 5 the ids of GTC orders carried into a new day were free again once the orders ended; version 6
        // keeps them used all day, so the commands after such a roll may replay differently.
        using var temp = new TempJournal();
        WriteWithRolls(temp.Path, gtcAt: 1, rollsAt: [0, 3]);
        JournalTestData.MarkVersion(temp.Path, 5);
        byte[] before = File.ReadAllBytes(temp.Path);
        var replayed = new List<long>();

        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(
            temp.Path, new JournalOptions(), JournalTestData.Configuration, (long sequence, in Command _) => replayed.Add(sequence), out _));

        Assert.Equal(JournalRefusal.Format, error.Reason);
        Assert.Contains("is format version 5 and holds a new trading day after a GoodTillCancel order (record 3)", error.Message, StringComparison.Ordinal);
        Assert.Equal([0, 1, 2], replayed);
        Assert.Equal(before, File.ReadAllBytes(temp.Path));
    }

    [Fact]
    public void A_version_5_journal_whose_rolls_carried_no_gtc_order_is_replayed_and_marked_current()
    {
        using var temp = new TempJournal();
        WriteWithRolls(temp.Path, gtcAt: 4, rollsAt: [0, 3]);
        JournalTestData.MarkVersion(temp.Path, 5);

        using (JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.Configuration, out JournalScan scan))
        {
            Assert.Equal(6, scan.Records);
        }

        Assert.Equal(JournalFormat.Version, JournalTestData.ReadVersion(temp.Path));
    }

    /// <summary>Six records: new trading days at <paramref name="rollsAt"/>, a GoodTillCancel order at <paramref name="gtcAt"/>, Day orders elsewhere.</summary>
    private static void WriteWithRolls(string path, long gtcAt, long[] rollsAt)
    {
        using JournalWriter writer = JournalWriter.Open(path, new JournalOptions { FsyncPolicy = FsyncPolicy.Never }, JournalTestData.Configuration, out _);
        for (long i = 0; i < 6; i++)
        {
            Command command = JournalTestData.CommandFor(i);
            command.Type = CommandType.NewOrder;
            command.TimeInForce = i == gtcAt ? TimeInForce.GoodTillCancel : TimeInForce.Day;
            if (rollsAt.Contains(i))
            {
                command = new Command { Type = CommandType.NewTradingDay, Timestamp = 5 };
            }

            writer.Append(in command, i);
        }

        writer.CommitBatch();
    }

    [Fact]
    public void An_older_journal_whose_extension_does_not_fit_is_refused_unmarked_so_its_own_build_still_opens_it()
    {
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 5);
        byte[] bytes = File.ReadAllBytes(temp.Path);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(8), JournalFormat.Version - 1);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(28), Crc32.Compute(bytes.AsSpan(0, 28)));
        File.WriteAllBytes(temp.Path, bytes);
        string[] symbols = [.. JournalTestData.Configuration.Instruments.Select(i => i.Symbol), .. Enumerable.Range(0, 5000).Select(i => $"S{i}")];

        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(
            temp.Path, new JournalOptions(), JournalTestData.ConfigurationOf(symbols, 5), out _));

        Assert.Contains("more than the", error.Message, StringComparison.Ordinal);
        Assert.Equal(bytes, File.ReadAllBytes(temp.Path));
    }

    [Fact]
    public void TheConfiguration_SurvivesItsEncoding()
    {
        JournalConfiguration configuration = JournalTestData.Configuration;
        byte[] bytes = new byte[configuration.EncodedLength];
        configuration.Encode(bytes);

        JournalConfiguration? decoded = JournalConfiguration.TryDecode(bytes);

        Assert.NotNull(decoded);
        Assert.Equal(configuration.Instruments, decoded.Instruments);
        Assert.Equal(configuration.Sessions, decoded.Sessions);
        Assert.Equal(configuration.MaxClOrdIdsPerDay, decoded.MaxClOrdIdsPerDay);
        Assert.Null(JournalConfiguration.TryDecode(bytes.AsSpan(0, bytes.Length - 1)));
    }

    // The version 1 layout: a 32-byte header (reserved zero where version 2 keeps its slot size), then records.
    private static byte[] Version1Journal(int records)
    {
        byte[] bytes = new byte[JournalFormat.PrefixSize + (records * JournalFormat.RecordSize)];
        BinaryPrimitives.WriteUInt64LittleEndian(bytes, JournalFormat.Magic);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(8), 1);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(12), JournalFormat.RecordSize);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(16), JournalFormat.PayloadSize);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(20), JournalFormat.PayloadFingerprint);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(28), Crc32.Compute(bytes.AsSpan(0, 28)));
        for (int i = 0; i < records; i++)
        {
            Command command = JournalTestData.CommandFor(i);
            JournalFormat.WriteRecord(bytes.AsSpan(JournalFormat.PrefixSize + (i * JournalFormat.RecordSize), JournalFormat.RecordSize), i, in command);
        }

        return bytes;
    }
}
