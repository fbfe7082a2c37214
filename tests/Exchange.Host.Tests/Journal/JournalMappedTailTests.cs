using Exchange.Core.Commands;
using Exchange.Host.Journal;
using Xunit;

namespace Exchange.Host.Tests.Journal;

/// <summary>
/// The journal as a crashed venue leaves it: written through a memory map, extended ahead in chunks and never trimmed
/// (no dispose). The file is read while its writer is still open, which is exactly what the page cache holds after a
/// SIGKILL.
/// </summary>
public class JournalMappedTailTests
{
    private const int ChunkRecords = 16;

    [Fact]
    public void CommittedRecords_AreReadBack_AndTheUnusedTailIsACleanEnd()
    {
        using var temp = new TempJournal();
        using JournalWriter writer = Open(temp.Path, out _);
        AppendCommitted(writer, 0, 40); // crosses two chunk boundaries

        var records = JournalTestData.ReadAll(temp.Path, out JournalReader reader);

        Assert.Equal(40, records.Count);
        for (int i = 0; i < 40; i++)
        {
            JournalTestData.AssertSame(JournalTestData.CommandFor(i), records[i].Command);
        }

        Assert.True(new FileInfo(temp.Path).Length > reader.StopOffset, "the writer extends the file ahead of its records");
        Assert.Equal(JournalReadStatus.Clean, reader.Status);
        Assert.Equal(0, reader.DroppedBytes);
    }

    [Fact]
    public void ReopeningACrashedJournal_ContinuesAfterTheLastRecord_AndDisposeTrimsTheTail()
    {
        using var temp = new TempJournal();
        string crashed = temp.Path + ".crashed";
        using (JournalWriter writer = Open(temp.Path, out _))
        {
            AppendCommitted(writer, 0, 25);
            File.Copy(temp.Path, crashed);
        }

        using (JournalWriter writer = Open(crashed, out JournalScan scan))
        {
            Assert.Equal(JournalReadStatus.Clean, scan.Status);
            Assert.Equal(25, scan.Records);
            Assert.Equal(24, scan.LastSequence);
            Assert.Equal(24, writer.DurableSequence.Value);
            AppendCommitted(writer, 25, 10);
        }

        var records = JournalTestData.ReadAll(crashed, out JournalReader reader);
        Assert.Equal(35, records.Count);
        Assert.Equal(34, records[^1].Sequence);
        Assert.Equal(JournalTestData.DataStart + (35L * JournalFormat.RecordSize), new FileInfo(crashed).Length);
        Assert.Equal(JournalReadStatus.Clean, reader.Status);
    }

    [Fact]
    public void ARecordWhoseWriteStoppedBeforeItsCrc_IsTorn_AndEverythingBeforeItIsKept()
    {
        using var temp = new TempJournal();
        using JournalWriter writer = Open(temp.Path, out _);
        AppendCommitted(writer, 0, 5);

        // A crash in the middle of the sixth record: its first half is there, its CRC (written last) is not.
        byte[] half = new byte[JournalFormat.RecordSize];
        Command command = JournalTestData.CommandFor(5);
        JournalFormat.WriteRecord(half, 5, in command);
        using (var file = new FileStream(temp.Path, FileMode.Open, FileAccess.Write, FileShare.ReadWrite))
        {
            file.Position = JournalTestData.DataStart + (5L * JournalFormat.RecordSize);
            file.Write(half, 0, JournalFormat.CrcOffset / 2);
        }

        var records = JournalTestData.ReadAll(temp.Path, out JournalReader reader);
        Assert.Equal(5, records.Count);
        Assert.Equal(JournalReadStatus.TornRecord, reader.Status);
        Assert.Equal(JournalTestData.DataStart + (5L * JournalFormat.RecordSize), reader.StopOffset);
    }

    private static JournalWriter Open(string path, out JournalScan scan) =>
        JournalWriter.Open(path, new JournalOptions { FsyncPolicy = FsyncPolicy.Never, MapChunkBytes = ChunkRecords * JournalFormat.RecordSize }, JournalTestData.Configuration, out scan);

    private static void AppendCommitted(JournalWriter writer, long first, int count)
    {
        for (long i = first; i < first + count; i++)
        {
            Command command = JournalTestData.CommandFor(i);
            writer.Append(in command, i);
        }

        writer.CommitBatch();
    }
}
