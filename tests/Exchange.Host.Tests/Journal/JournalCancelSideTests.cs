using System.Buffers.Binary;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Storage;
using Exchange.Host.Journal;
using Xunit;

namespace Exchange.Host.Tests.Journal;

/// <summary>
/// Before format version 9 a cancel was carried out whatever its Side. An older journal's cancels must replay so on
/// every start, also after the journal was marked current and appended to; cancels written under version 9 or later
/// keep their Side, which the engine checks.
/// </summary>
public class JournalCancelSideTests
{
    private static readonly JournalOptions Unsynced = new() { FsyncPolicy = FsyncPolicy.Never };

    [Theory]
    [InlineData(8, Side.None)]
    [InlineData(9, Side.Sell)]
    [InlineData(JournalFormat.Version, Side.Sell)]
    public void Cancels_of_a_journal_older_than_the_side_check_replay_without_their_side(int version, Side replayedSide)
    {
        using var temp = new TempJournal();
        Append(temp.Path, (0, CommandType.NewOrder), (1, CommandType.Cancel));
        JournalTestData.MarkVersion(temp.Path, version);

        Assert.Equal([(0, CommandType.NewOrder, Side.Sell), (1, CommandType.Cancel, replayedSide)], Replay(temp.Path));
    }

    [Fact]
    public void An_older_journal_marked_current_keeps_replaying_its_own_cancels_without_their_side_and_checks_the_later_ones()
    {
        using var temp = new TempJournal();
        Append(temp.Path, (0, CommandType.NewOrder), (1, CommandType.Cancel));
        JournalTestData.MarkVersion(temp.Path, 8);

        Replay(temp.Path);
        Assert.Equal(JournalFormat.Version, JournalTestData.ReadVersion(temp.Path));
        Append(temp.Path, (2, CommandType.Cancel), (3, CommandType.Replace));

        (long, CommandType, Side)[] expected =
        [
            (0, CommandType.NewOrder, Side.Sell), (1, CommandType.Cancel, Side.None),
            (2, CommandType.Cancel, Side.Sell), (3, CommandType.Replace, Side.Sell),
        ];
        Assert.Equal(expected, Replay(temp.Path));
        Assert.Equal(expected, Replay(temp.Path));
        Assert.Equal(1, ReadHeader(temp.Path).SideBlindCancelsThrough);
    }

    [Fact]
    public void A_journal_begun_under_the_side_check_replays_every_cancel_with_its_side()
    {
        using var temp = new TempJournal();
        Append(temp.Path, (0, CommandType.NewOrder), (1, CommandType.Cancel));

        Assert.Equal(JournalHeader.NoSideBlindCancels, ReadHeader(temp.Path).SideBlindCancelsThrough);
        Assert.Equal(Side.Sell, Replay(temp.Path)[1].Side);
    }

    [Fact]
    public void A_mark_cut_short_before_the_prefix_was_rewritten_leaves_the_older_rule_and_is_made_again()
    {
        // The mark writes a new configuration generation (with the boundary), then the prefix. A crash between them
        // leaves an older prefix, under which the new slot's boundary is not read: every cancel is still side-blind.
        using var temp = new TempJournal();
        Append(temp.Path, (0, CommandType.NewOrder), (1, CommandType.Cancel));
        JournalTestData.MarkVersion(temp.Path, 8);
        Replay(temp.Path);
        long markedGeneration = ReadHeader(temp.Path).Generation;
        JournalTestData.MarkVersion(temp.Path, 8);

        Assert.Equal(Side.None, Replay(temp.Path)[1].Side);

        JournalHeader header = ReadHeader(temp.Path);
        Assert.Equal(JournalFormat.Version, header.Version);
        Assert.Equal(markedGeneration + 1, header.Generation);
        Assert.Equal(1, header.SideBlindCancelsThrough);
    }

    [Fact]
    public void An_older_journal_extended_when_marked_records_both_in_one_generation()
    {
        using var temp = new TempJournal();
        Append(temp.Path, (0, CommandType.NewOrder), (1, CommandType.Cancel));
        JournalTestData.MarkVersion(temp.Path, 8);
        long before = ReadHeader(temp.Path).Generation;
        string[] symbols = [.. JournalTestData.Configuration.Instruments.Select(i => i.Symbol), "IBM"];
        JournalConfiguration extended = JournalTestData.ConfigurationOf(symbols, 5);

        using (JournalWriter.Open(temp.Path, Unsynced, extended, out JournalScan scan))
        {
            Assert.Contains($"marked {JournalFormat.Version}", scan.ConfigurationChange, StringComparison.Ordinal);
            Assert.Contains("configuration extended at the end", scan.ConfigurationChange, StringComparison.Ordinal);
        }

        JournalHeader header = ReadHeader(temp.Path);
        Assert.Equal(before + 1, header.Generation);
        Assert.Equal("IBM", header.Configuration.Instruments[^1].Symbol);
        Assert.Equal(1, header.SideBlindCancelsThrough);
    }

    [Fact]
    public void A_version_9_journal_written_without_the_header_boundary_opens_and_keeps_checking_its_cancels()
    {
        // A version 9 build wrote its slots without the trailer, and checked every cancel it journalled.
        using var temp = new TempJournal();
        Append(temp.Path, (0, CommandType.NewOrder), (1, CommandType.Cancel));
        RewriteSlotsWithoutTrailer(temp.Path, JournalTestData.Configuration, version: 9);

        Assert.Equal([(0, CommandType.NewOrder, Side.Sell), (1, CommandType.Cancel, Side.Sell)], Replay(temp.Path));

        JournalHeader header = ReadHeader(temp.Path);
        Assert.Equal(JournalFormat.Version, header.Version);
        Assert.Equal(JournalHeader.NoSideBlindCancels, header.SideBlindCancelsThrough);
        Assert.Equal(Side.Sell, Replay(temp.Path)[1].Side);
    }

    [Fact]
    public void A_version_8_journal_written_without_the_header_boundary_is_marked_with_its_last_sequence()
    {
        using var temp = new TempJournal();
        Append(temp.Path, (0, CommandType.NewOrder), (1, CommandType.Cancel), (2, CommandType.Cancel));
        RewriteSlotsWithoutTrailer(temp.Path, JournalTestData.Configuration, version: 8);

        Assert.Equal(Side.None, Replay(temp.Path)[2].Side);
        Assert.Equal(2, ReadHeader(temp.Path).SideBlindCancelsThrough);
        Assert.Equal(Side.None, Replay(temp.Path)[2].Side);
    }

    /// <summary>Appends commands of the given types at the given sequences, each with Side Sell.</summary>
    private static void Append(string path, params (long Sequence, CommandType Type)[] records)
    {
        using JournalWriter writer = JournalWriter.Open(path, Unsynced, JournalTestData.Configuration, out _);
        foreach ((long sequence, CommandType type) in records)
        {
            Command command = JournalTestData.CommandFor(sequence);
            command.Type = type;
            command.Side = Side.Sell;
            writer.Append(in command, sequence);
        }

        writer.CommitBatch();
    }

    /// <summary>Opens the journal as the venue does at start and returns what it replays.</summary>
    private static (long Sequence, CommandType Type, Side Side)[] Replay(string path)
    {
        var replayed = new List<(long, CommandType, Side)>();
        using (JournalWriter.Open(path, Unsynced, JournalTestData.Configuration, (long sequence, in Command command) => replayed.Add((sequence, command.Type, command.Side)), out _))
        {
        }

        return [.. replayed];
    }

    /// <summary>
    /// Clears both slots and writes <paramref name="configuration"/> as generation 1 in the layout before the trailer,
    /// with the prefix marked <paramref name="version"/>: the header a version 9 or older build wrote.
    /// </summary>
    private static void RewriteSlotsWithoutTrailer(string path, JournalConfiguration configuration, int version)
    {
        byte[] bytes = File.ReadAllBytes(path);
        int slotBytes = BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(24));
        bytes.AsSpan(JournalFormat.PrefixSize, 2 * slotBytes).Clear();
        Span<byte> slot = bytes.AsSpan(JournalFormat.PrefixSize + slotBytes, slotBytes); // generation 1 is the second slot
        int length = configuration.EncodedLength;
        BinaryPrimitives.WriteInt64LittleEndian(slot[4..], 1);
        BinaryPrimitives.WriteInt32LittleEndian(slot[12..], length);
        configuration.Encode(slot.Slice(JournalHeader.SlotOverhead, length));
        BinaryPrimitives.WriteUInt32LittleEndian(slot, Crc32.Compute(slot[4..(JournalHeader.SlotOverhead + length)]));
        File.WriteAllBytes(path, bytes);
        JournalTestData.MarkVersion(path, version);
    }

    private static JournalHeader ReadHeader(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        Assert.Equal(JournalHeaderStatus.Valid, JournalHeader.Read(file, out JournalHeader? header, out string? problem));
        Assert.Null(problem);
        return header!;
    }
}
