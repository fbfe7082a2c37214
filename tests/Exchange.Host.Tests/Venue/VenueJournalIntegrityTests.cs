using Exchange.Core.Commands;
using Exchange.Host.Configuration;
using Exchange.Host.Journal;
using Exchange.Host.Venue;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// The venue refuses to start on a journal it cannot replay faithfully (a corrupt record, or instruments and sessions
/// that moved), leaving the file for the operator; it accepts instruments and sessions added at the end.
/// </summary>
public sealed class VenueJournalIntegrityTests
{
    [Fact]
    public async Task A_flipped_bit_in_a_middle_record_refuses_the_start_and_leaves_the_journal_byte_identical()
    {
        using var directory = new TempVenueDirectory();
        await WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 10);
        long offset = Journal.JournalTestData.RecordOffset(4);
        Journal.JournalTestData.FlipBit(directory.JournalPath, offset + 40);
        byte[] before = File.ReadAllBytes(directory.JournalPath);

        var engine = new FakeEngine();
        await using VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), engine, out _);
        var error = await Assert.ThrowsAsync<JournalRefusedException>(() => venue.StartAsync(CancellationToken.None));

        Assert.Contains($"Journal '{directory.JournalPath}' is corrupt: the record at offset {offset} (sequence field 4) fails its CRC", error.Message, StringComparison.Ordinal);
        Assert.Contains("5 valid records (sequences 5..9)", error.Message, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(directory.JournalPath));
    }

    [Fact]
    public async Task A_record_whose_command_has_another_number_refuses_the_start_with_a_message_not_a_crash()
    {
        using var directory = new TempVenueDirectory();
        await WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 5);
        long offset = Journal.JournalTestData.RecordOffset(2);
        byte[] bytes = File.ReadAllBytes(directory.JournalPath);
        Span<byte> record = bytes.AsSpan((int)offset, JournalFormat.RecordSize);
        Assert.True(JournalFormat.TryReadRecord(record, out long sequence, out Command command));
        command.Sequence = sequence + 1;
        JournalFormat.WriteRecord(record, sequence, in command); // a valid CRC over the wrong number
        File.WriteAllBytes(directory.JournalPath, bytes);

        await using VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), new FakeEngine(), out _);
        var error = await Assert.ThrowsAsync<JournalRefusedException>(() => venue.StartAsync(CancellationToken.None));

        Assert.Equal(JournalRefusal.Corruption, error.Reason);
        Assert.Contains($"record {sequence} holds a command numbered {sequence + 1}", error.Message, StringComparison.Ordinal);
        Assert.Equal(bytes, File.ReadAllBytes(directory.JournalPath));
    }

    [Fact]
    public async Task Reordered_instruments_refuse_the_start_naming_the_difference()
    {
        using var directory = new TempVenueDirectory();
        await WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 3);
        byte[] before = File.ReadAllBytes(directory.JournalPath);
        VenueOptions reordered = VenueTestOptions.Create(directory.Path);
        reordered.Instruments.Reverse();

        var engine = new FakeEngine();
        await using VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), engine, out _, reordered);
        var error = await Assert.ThrowsAsync<JournalRefusedException>(() => venue.StartAsync(CancellationToken.None));

        Assert.Equal(JournalRefusal.Configuration, error.Reason);
        Assert.Contains("instrument 0 was AAPL, the configuration now has MSFT at 0; instrument 1 was MSFT, the configuration now has AAPL at 1", error.Message, StringComparison.Ordinal);
        Assert.Empty(engine.Processed);
        Assert.Equal(before, File.ReadAllBytes(directory.JournalPath));
    }

    [Fact]
    public async Task An_instrument_and_a_session_added_at_the_end_are_accepted_and_the_old_lists_are_refused_afterwards()
    {
        using var directory = new TempVenueDirectory();
        await WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 3);
        VenueOptions extended = VenueTestOptions.Create(directory.Path);
        extended.Instruments.Add(new InstrumentOptions { Symbol = "GOOG", PriceDecimals = 4, TickSize = "0.01", LotSize = 1, MinPrice = "0.01", MaxPrice = "2000" });
        extended.Sessions.Add(new SessionOptions { SenderCompId = "EXCH", TargetCompId = "CLIENT3", StorePath = "", StoreFsync = "Never" });

        var engine = new FakeEngine();
        var gateway = new FakeGateway();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, gateway, engine, out CapturingLoggerProvider logs, extended))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(3, venue.RecoveredCommands);
            Assert.True(logs.Contains("configuration extended at the end: instruments 2..2 added (GOOG); sessions 2..2 added (EXCH->CLIENT3)"), string.Join(Environment.NewLine, logs.Lines));
            Command onGoog = VenueTestOptions.NewOrder(3, owner: 2, instrument: 2);
            Assert.True(gateway.Commands!.TryPublish(in onGoog));
            gateway.WaitForEvents(1);
            await venue.StopAsync(CancellationToken.None);
        }

        var replayed = new FakeEngine();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), replayed, out _, extended))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(4, venue.RecoveredCommands);
            Assert.Equal((2, 2), (replayed.Processed[3].InstrumentId, replayed.Processed[3].OwnerId));
            await venue.StopAsync(CancellationToken.None);
        }

        await using VenueService shorter = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), new FakeEngine(), out _);
        var error = await Assert.ThrowsAsync<JournalRefusedException>(() => shorter.StartAsync(CancellationToken.None));
        Assert.Contains("instrument 2 was GOOG, the configuration has no instrument 2; session 2 was EXCH->CLIENT3, the configuration has no session 2", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_stop_requested_during_the_replay_ends_it_at_the_next_record_and_the_next_start_replays_the_whole_journal()
    {
        // systemd kills a unit that has not stopped within TimeoutStopSec, also while it is still starting: a long
        // replay must not run to its end first.
        using var directory = new TempVenueDirectory();
        await WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 5);
        byte[] before = File.ReadAllBytes(directory.JournalPath);
        using var stop = new CancellationTokenSource();
        var engine = new FakeEngine { AfterEach = e => { if (e.Processed.Count == 2) { stop.Cancel(); } } };
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), engine, out CapturingLoggerProvider logs))
        {
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => venue.StartAsync(stop.Token));

            Assert.Equal(2, engine.Processed.Count);
            Assert.False(venue.Started);
            Assert.True(logs.Contains("stopped during its start"), string.Join(Environment.NewLine, logs.Lines));
            Assert.False(logs.Contains("Replayed "), string.Join(Environment.NewLine, logs.Lines));
            Assert.True(logs.Contains("Journal replay stopped as asked after 2 commands, before record 2;"), string.Join(Environment.NewLine, logs.Lines));
        }

        Assert.Equal(before, File.ReadAllBytes(directory.JournalPath));
        var replayed = new FakeEngine();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), replayed, out _))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(5, venue.RecoveredCommands);
            Assert.Equal(5, replayed.Processed.Count);
            await venue.StopAsync(CancellationToken.None);
        }
    }

    [Fact]
    public async Task A_record_the_engine_throws_on_refuses_the_start_naming_it_and_starts_once_the_operator_skips_it()
    {
        using var directory = new TempVenueDirectory();
        await WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 6);
        byte[] before = MarkPreviousVersion(directory.JournalPath); // so that any write by the refused start would show
        string skipItem = ItemFor(directory.JournalPath, 3);

        var refusing = new ThrowingEngine("O-3");
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), refusing, out CapturingLoggerProvider logs))
        {
            var error = await Assert.ThrowsAsync<JournalRefusedException>(() => venue.StartAsync(CancellationToken.None));

            Assert.Equal(JournalRefusal.ReplayFault, error.Reason);
            Assert.Contains(
                $"Journal '{directory.JournalPath}': replaying record 3 (NewOrder from EXCH->CLIENT2, ClOrdID O-3, MSFT) made the engine throw " +
                "InvalidOperationException: engine defect triggered by O-3.",
                error.Message,
                StringComparison.Ordinal);
            Assert.Contains($"add {skipItem} to Venue:Journal:SkipRecords", error.Message, StringComparison.Ordinal);
            Assert.IsType<InvalidOperationException>(error.InnerException);
            Assert.True(logs.Contains("Replaying journal record 3 made the engine throw"), string.Join(Environment.NewLine, logs.Lines));
            Assert.Equal(3, refusing.Inner.Processed.Count);
        }

        Assert.Equal(before, File.ReadAllBytes(directory.JournalPath));
        Assert.False(File.Exists(JournalSkipList.PathFor(directory.JournalPath)));

        VenueOptions skipping = VenueTestOptions.Create(directory.Path);
        skipping.Journal.SkipRecords = skipItem;
        var replayed = new ThrowingEngine("O-3");
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), replayed, out CapturingLoggerProvider logs, skipping))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.Equal(5, venue.RecoveredCommands);
            Assert.True(
                logs.Contains("Journal record 3 (NewOrder from EXCH->CLIENT2, ClOrdID O-3, MSFT) skipped, as Venue:Journal:SkipRecords says: it is not applied"),
                string.Join(Environment.NewLine, logs.Lines));
            await venue.StopAsync(CancellationToken.None);
        }

        Assert.Equal([0L, 1, 2, 4, 5], replayed.Inner.Processed.Select(c => c.Sequence));
        Assert.True(File.Exists(JournalSkipList.PathFor(directory.JournalPath)));

        // The skip is the journal's history now: a start without the setting (with the defect fixed, even) skips it too.
        var fixedEngine = new FakeEngine();
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), fixedEngine, out CapturingLoggerProvider logs))
        {
            await venue.StartAsync(CancellationToken.None);
            Assert.True(logs.Contains("Journal record 3 (NewOrder from EXCH->CLIENT2, ClOrdID O-3, MSFT) skipped, as an earlier start recorded in"), string.Join(Environment.NewLine, logs.Lines));
            await venue.StopAsync(CancellationToken.None);
        }

        Assert.Equal([0L, 1, 2, 4, 5], fixedEngine.Processed.Select(c => c.Sequence));
    }

    [Fact]
    public async Task A_skip_list_written_for_another_journal_refuses_the_start()
    {
        using var directory = new TempVenueDirectory();
        await WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 6);
        VenueOptions skipping = VenueTestOptions.Create(directory.Path);
        skipping.Journal.SkipRecords = ItemFor(directory.JournalPath, 3);
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), new FakeEngine(), out _, skipping))
        {
            await venue.StartAsync(CancellationToken.None);
            await venue.StopAsync(CancellationToken.None);
        }

        // Another journal under the same name, the first one's list left beside it: a record 3 with other contents, then
        // none at all. (The list is set aside while the other journal is written: with it, that start is refused too.)
        string list = JournalSkipList.PathFor(directory.JournalPath);
        File.Move(list, list + ".aside");
        File.Delete(directory.JournalPath);
        await WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 6, firstOrder: 100);
        File.Move(list + ".aside", list);
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), new FakeEngine(), out _))
        {
            var error = await Assert.ThrowsAsync<JournalRefusedException>(() => venue.StartAsync(CancellationToken.None));
            Assert.Contains("says record 3 is skipped, for a command with checksum", error.Message, StringComparison.Ordinal);
            Assert.Contains("the list was written for another journal", error.Message, StringComparison.Ordinal);
        }

        File.Delete(directory.JournalPath);
        await using (VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), new FakeEngine(), out _))
        {
            var error = await Assert.ThrowsAsync<JournalRefusedException>(() => venue.StartAsync(CancellationToken.None));
            Assert.Contains("says record(s) 3 are skipped, but the journal ends at record -1: either the list was written for another journal", error.Message, StringComparison.Ordinal);
        }

        Assert.False(File.Exists(directory.JournalPath), "a refused start must not create the journal");
    }

    [Fact]
    public async Task Skipping_a_record_past_the_journals_end_refuses_the_start_so_a_later_record_is_never_dropped()
    {
        using var directory = new TempVenueDirectory();
        await WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 3);
        VenueOptions options = VenueTestOptions.Create(directory.Path);
        options.Journal.SkipRecords = $"{ItemFor(directory.JournalPath, 1)},3:00000000,9:00000000";
        byte[] bytes = MarkPreviousVersion(directory.JournalPath);

        await using VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), new FakeEngine(), out _, options);
        var error = await Assert.ThrowsAsync<JournalRefusedException>(() => venue.StartAsync(CancellationToken.None));

        Assert.Equal(JournalRefusal.Configuration, error.Reason);
        Assert.Contains($"Venue:Journal:SkipRecords names record(s) 3,9, but journal '{directory.JournalPath}' holds none past record 2", error.Message, StringComparison.Ordinal);
        Assert.Equal(bytes, File.ReadAllBytes(directory.JournalPath));
        Assert.False(File.Exists(JournalSkipList.PathFor(directory.JournalPath)));
    }

    [Fact]
    public async Task A_skip_whose_checksum_is_another_commands_refuses_the_start_and_records_nothing()
    {
        using var directory = new TempVenueDirectory();
        await WriteJournalAsync(directory, VenueTestOptions.Create(directory.Path), orders: 6);
        VenueOptions options = VenueTestOptions.Create(directory.Path);
        options.Journal.SkipRecords = ItemFor(directory.JournalPath, 2).Replace("2:", "3:", StringComparison.Ordinal); // record 2's checksum

        await using VenueService venue = VenuePipelineTests.CreateVenue(directory, new FakeGateway(), new FakeEngine(), out _, options);
        var error = await Assert.ThrowsAsync<JournalRefusedException>(() => venue.StartAsync(CancellationToken.None));

        Assert.Contains($"names record 3 with checksum {options.Journal.SkipRecords[2..]}, but journal '{directory.JournalPath}' has {ItemFor(directory.JournalPath, 3)}", error.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(JournalSkipList.PathFor(directory.JournalPath)));
    }

    /// <summary>The SkipRecords item for record <paramref name="sequence"/>, as a refusal to replay it would print it.</summary>
    private static string ItemFor(string journalPath, long sequence)
    {
        using JournalReader reader = JournalReader.Open(journalPath);
        while (reader.TryRead(out long read, out Command command))
        {
            if (read == sequence)
            {
                return SkippedRecords.Item(sequence, JournalSkipList.ChecksumOf(in command));
            }
        }

        throw new InvalidOperationException($"no record {sequence}");
    }

    /// <summary>Marks the journal as written by the previous format version (which a start that writes would re-mark); returns its bytes.</summary>
    private static byte[] MarkPreviousVersion(string journalPath)
    {
        byte[] bytes = File.ReadAllBytes(journalPath);
        System.Buffers.Binary.BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(8), JournalFormat.Version - 1);
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(28), Exchange.Core.Storage.Crc32.Compute(bytes.AsSpan(0, 28)));
        File.WriteAllBytes(journalPath, bytes);
        return bytes;
    }

    /// <summary>Starts a venue on <paramref name="options"/>, journals <paramref name="orders"/> orders and stops it.</summary>
    internal static async Task WriteJournalAsync(TempVenueDirectory directory, VenueOptions options, int orders, int firstOrder = 0)
    {
        var gateway = new FakeGateway();
        await using VenueService venue = VenuePipelineTests.CreateVenue(directory, gateway, new FakeEngine(), out _, options);
        await venue.StartAsync(CancellationToken.None);
        for (int i = 0; i < orders; i++)
        {
            Command command = VenueTestOptions.NewOrder(firstOrder + i, owner: i % 2, instrument: i % 2);
            Assert.True(gateway.Commands!.TryPublish(in command));
        }

        gateway.WaitForEvents(orders);
        await venue.StopAsync(CancellationToken.None);
    }
}
