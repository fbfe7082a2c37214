using Exchange.Core.Commands;
using Exchange.Core.Storage;
using Exchange.Host.Journal;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Host.Tests.Journal;

[Collection(ZeroAllocationCollection.Name)]
public class JournalTests
{
    [Theory]
    [InlineData(1, 1)]
    [InlineData(1000, 10)]
    [InlineData(1000, 333)]
    public void WriteThenRead_ReturnsEveryCommandIdentically(int count, int batch)
    {
        using var temp = new TempJournal();
        // A map chunk of 7 records forces remaps mid-batch too.
        JournalTestData.Write(temp.Path, count, batch, new JournalOptions { FsyncPolicy = FsyncPolicy.Never, MapChunkBytes = 7 * JournalFormat.RecordSize });

        var records = JournalTestData.ReadAll(temp.Path, out JournalReader reader);

        Assert.Equal(count, records.Count);
        for (int i = 0; i < count; i++)
        {
            Assert.Equal(i, records[i].Sequence);
            JournalTestData.AssertSame(JournalTestData.CommandFor(i), records[i].Command);
        }

        Assert.Equal(JournalReadStatus.Clean, reader.Status);
        Assert.Equal(0, reader.DroppedBytes);
        Assert.Equal(JournalTestData.DataStart + ((long)count * JournalFormat.RecordSize), new FileInfo(temp.Path).Length);
    }

    [Fact]
    public void TruncatedMidRecord_LastRecordIsDroppedAndReported()
    {
        using var temp = new TempJournal();
        const int count = 50;
        JournalTestData.Write(temp.Path, count);
        long fullLength = new FileInfo(temp.Path).Length;
        int torn = JournalFormat.RecordSize / 2;
        using (var file = new FileStream(temp.Path, FileMode.Open))
        {
            file.SetLength(fullLength - torn);
        }

        var records = JournalTestData.ReadAll(temp.Path, out JournalReader reader);

        Assert.Equal(count - 1, records.Count);
        Assert.Equal(count - 2, records[^1].Sequence);
        Assert.Equal(JournalReadStatus.TornRecord, reader.Status);
        Assert.Equal(JournalTestData.DataStart + ((count - 1L) * JournalFormat.RecordSize), reader.StopOffset);
        Assert.Equal(JournalFormat.RecordSize - torn, reader.DroppedBytes);
    }

    [Fact]
    public void ZeroFilledTail_IsNotReplayedAsARecord()
    {
        // After a crash the writer's mapped-ahead extent (or a filesystem's unfinished one) reads as zeros: the clean end.
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 5);
        using (var file = new FileStream(temp.Path, FileMode.Append))
        {
            file.Write(new byte[JournalFormat.RecordSize * 2]);
        }

        var records = JournalTestData.ReadAll(temp.Path, out JournalReader reader);

        Assert.Equal(5, records.Count);
        Assert.Equal(JournalReadStatus.Clean, reader.Status);
        Assert.Equal(JournalTestData.DataStart + (5L * JournalFormat.RecordSize), reader.StopOffset);
        Assert.Equal(0, reader.DroppedBytes);
    }

    [Fact]
    public void ReopenForAppend_AfterTornTail_TruncatesAndContinuesCleanly()
    {
        using var temp = new TempJournal();
        JournalTestData.WriteTorn(temp.Path, 20, bytes: 5);

        using (JournalWriter writer = JournalWriter.Open(temp.Path, new JournalOptions { FsyncPolicy = FsyncPolicy.EveryBatch }, JournalTestData.Configuration, out JournalScan scan))
        {
            Assert.Equal(JournalReadStatus.TornRecord, scan.Status);
            Assert.Equal(19, scan.Records);
            Assert.Equal(18, scan.LastSequence);
            Assert.Equal(JournalFormat.RecordSize - 5, scan.DroppedBytes);
            Assert.Contains("dropped torn record at offset " + scan.GoodLength, scan.Describe(), StringComparison.Ordinal);
            Assert.Equal(18, writer.DurableSequence.Value);

            for (long i = 19; i < 30; i++)
            {
                Command command = JournalTestData.CommandFor(i);
                writer.Append(in command, i);
            }

            writer.CommitBatch();
            Assert.Equal(29, writer.DurableSequence.Value);
        }

        var records = JournalTestData.ReadAll(temp.Path, out JournalReader reader);
        Assert.Equal(JournalReadStatus.Clean, reader.Status);
        Assert.Equal(30, records.Count);
        for (int i = 0; i < 30; i++)
        {
            Assert.Equal(i, records[i].Sequence);
            JournalTestData.AssertSame(JournalTestData.CommandFor(i), records[i].Command);
        }
    }

    /// <summary>Recovery reads the journal once: the open hands over exactly the records it keeps, none of a torn tail.</summary>
    [Fact]
    public void OpenWithReplay_HandsOverEveryKeptRecord_InOrder_AndNoneOfATornTail()
    {
        using var temp = new TempJournal();
        JournalTestData.WriteTorn(temp.Path, 20, bytes: 5);

        var replayed = new List<(long Sequence, Command Command)>();
        using (JournalWriter writer = JournalWriter.Open(
            temp.Path, new JournalOptions(), JournalTestData.Configuration, (long sequence, in Command command) => replayed.Add((sequence, command)), out JournalScan scan))
        {
            Assert.Equal(JournalReadStatus.TornRecord, scan.Status);
            Assert.Equal(scan.Records, replayed.Count);
        }

        Assert.Equal(19, replayed.Count);
        for (int i = 0; i < replayed.Count; i++)
        {
            Assert.Equal(i, replayed[i].Sequence);
            JournalTestData.AssertSame(JournalTestData.CommandFor(i), replayed[i].Command);
        }
    }

    [Fact]
    public void TornHeader_IsReportedAndRewrittenOnAppend()
    {
        using var temp = new TempJournal();
        File.WriteAllBytes(temp.Path, new byte[10]);

        var records = JournalTestData.ReadAll(temp.Path, out JournalReader reader);
        Assert.Empty(records);
        Assert.Equal(JournalReadStatus.TornRecord, reader.Status);

        using (JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.Configuration, out JournalScan scan))
        {
            Assert.Equal(JournalReadStatus.TornRecord, scan.Status);
            Assert.Equal(-1, scan.LastSequence);
        }

        JournalTestData.ReadAll(temp.Path, out JournalReader reread);
        Assert.Equal(JournalReadStatus.Clean, reread.Status);
    }

    [Fact]
    public void HeaderOfAnotherFormat_IsRefusedWithTheDifference()
    {
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 3);
        byte[] bytes = File.ReadAllBytes(temp.Path);
        bytes[12] ^= 0x08; // record size field
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(28), Crc32.Compute(bytes.AsSpan(0, 28)));
        File.WriteAllBytes(temp.Path, bytes);

        var error = Assert.Throws<JournalRefusedException>(() => JournalReader.Open(temp.Path));
        Assert.Contains("different format", error.Message, StringComparison.Ordinal);
        Assert.Equal(JournalRefusal.Format, error.Reason);
        Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.Configuration, out _));
    }

    [Theory]
    [InlineData(0x44811AF2u)] // before Command.PossibleResend
    [InlineData(0x8ED26B3Bu)] // before Command.SelfTradePrevention
    public void JournalWrittenWithAnOlderCommandLayoutOfTheSameSize_IsRefusedNamingTheLayout(uint olderLayout)
    {
        // Each took a byte of the command's padding: the same sizes, so only the layout fingerprint tells them apart.
        // Replaying such records now would read fields from the wrong bytes (or padding as an instruction); the
        // journal must be refused instead.
        Assert.NotEqual(olderLayout, JournalFormat.PayloadFingerprint);
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, 3);
        byte[] bytes = File.ReadAllBytes(temp.Path);
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(20), olderLayout);
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(28), Crc32.Compute(bytes.AsSpan(0, 28)));
        File.WriteAllBytes(temp.Path, bytes);

        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.Configuration, out _));
        Assert.Equal(JournalRefusal.Format, error.Reason);
        Assert.Contains($"layout {olderLayout:X8}); this build uses record {JournalFormat.RecordSize} bytes, command {JournalFormat.PayloadSize} bytes, layout {JournalFormat.PayloadFingerprint:X8}", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Never", 20_000, 10)]
    [InlineData("Periodic", 20_000, 10)]
    [InlineData("EveryBatch", 2_000, 100)]
    public void AppendAndCommit_AllocateNothingPerRecordAfterWarmUp(string policyName, int count, int batch)
    {
        FsyncPolicy policy = Enum.Parse<FsyncPolicy>(policyName);
        using var temp = new TempJournal();
        using JournalWriter writer = JournalWriter.Open(temp.Path, new JournalOptions { FsyncPolicy = policy }, JournalTestData.Configuration, out _);
        Command command = JournalTestData.CommandFor(1);
        for (long i = 0; i < 1000; i++)
        {
            writer.Append(in command, i);
            if (i % batch == 0)
            {
                writer.CommitBatch();
            }
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (long i = 1000; i < 1000 + count; i++)
        {
            writer.Append(in command, i);
            if (i % batch == 0)
            {
                writer.CommitBatch();
            }
        }

        writer.CommitBatch();
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(0, allocated);
        Assert.Equal(999 + count, writer.DurableSequence.Value);
    }

    [Fact]
    public void DurableSequence_FollowsThePolicy()
    {
        using var temp = new TempJournal();
        Command command = JournalTestData.CommandFor(1);
        using (JournalWriter everyBatch = JournalWriter.Open(temp.Path, new JournalOptions { FsyncPolicy = FsyncPolicy.EveryBatch }, JournalTestData.Configuration, out _))
        {
            everyBatch.Append(in command, 0);
            Assert.Equal(-1, everyBatch.DurableSequence.Value);
            everyBatch.CommitBatch();
            Assert.Equal(0, everyBatch.DurableSequence.Value);
            Assert.Equal(0, everyBatch.SyncedSequence.Value);
        }

        var periodicOptions = new JournalOptions { FsyncPolicy = FsyncPolicy.Periodic, FsyncInterval = TimeSpan.FromHours(1) };
        using JournalWriter periodic = JournalWriter.Open(temp.Path, periodicOptions, JournalTestData.Configuration, out _);
        periodic.Append(in command, 1);
        periodic.CommitBatch();
        Assert.Equal(1, periodic.DurableSequence.Value);
        Assert.Equal(0, periodic.SyncedSequence.Value);
        periodic.Sync();
        Assert.Equal(1, periodic.SyncedSequence.Value);
    }

    [Fact]
    public void A_periodic_fsync_that_falls_due_after_the_last_batch_is_made_by_SyncIfDue()
    {
        using var temp = new TempJournal();
        Command command = JournalTestData.CommandFor(1);
        var options = new JournalOptions { FsyncPolicy = FsyncPolicy.Periodic, FsyncInterval = TimeSpan.FromMilliseconds(300) };
        using JournalWriter writer = JournalWriter.Open(temp.Path, options, JournalTestData.Configuration, out _);
        Assert.False(writer.SyncIfDue()); // nothing committed

        writer.Append(in command, 0);
        writer.CommitBatch();
        writer.Append(in command, 1);
        writer.CommitBatch();
        long synced = writer.SyncedSequence.Value;
        Assert.True(synced < 1, "the interval has not passed: the commits did not sync");

        // No more batches come: only the idle call syncs, once the interval has passed, and only once.
        DateTime deadline = DateTime.UtcNow.AddSeconds(10);
        bool syncedIdle = false;
        while (!syncedIdle && DateTime.UtcNow < deadline)
        {
            syncedIdle = writer.SyncIfDue();
            Thread.Sleep(5);
        }

        Assert.True(syncedIdle);
        Assert.Equal(1, writer.SyncedSequence.Value);
        Assert.False(writer.SyncIfDue());

        using var otherTemp = new TempJournal();
        using JournalWriter never = JournalWriter.Open(otherTemp.Path, new JournalOptions { FsyncPolicy = FsyncPolicy.Never }, JournalTestData.Configuration, out _);
        never.Append(in command, 0);
        never.CommitBatch();
        Thread.Sleep(350);
        Assert.False(never.SyncIfDue()); // other policies never sync from here
    }
}
