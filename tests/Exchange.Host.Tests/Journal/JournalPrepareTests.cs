using Exchange.Core.Commands;
using Exchange.Host.Journal;
using Xunit;

namespace Exchange.Host.Tests.Journal;

/// <summary>
/// <see cref="JournalWriter.PrepareNextRecord"/>: it readies the page the next record ends in once per page, forgets
/// after an fsync, and never changes what the journal reads back, even when the file is read as a crash leaves it.
/// </summary>
public class JournalPrepareTests
{
    private static readonly long PageSize = Environment.SystemPageSize;

    [Fact]
    public void Prepare_IsNeededOncePerPageTheNextRecordEndsIn()
    {
        using var temp = new TempJournal();
        using JournalWriter writer = Open(temp.Path, FsyncPolicy.Never);
        const int Records = 100;

        int prepared = writer.PrepareNextRecord() ? 1 : 0;
        Assert.False(writer.PrepareNextRecord());
        for (long i = 0; i < Records; i++)
        {
            Append(writer, i);
            writer.CommitBatch();
            prepared += writer.PrepareNextRecord() ? 1 : 0;
            Assert.False(writer.PrepareNextRecord());
        }

        // Records 0..Records were each "the next record" once; a prepare was due whenever one ended in a page no earlier
        // one had ended in (the page a record starts in was prepared with the record before it, or is the first).
        var pages = new HashSet<long>();
        for (long i = 0; i <= Records; i++)
        {
            pages.Add((JournalTestData.RecordOffset(i + 1) - 1) / PageSize);
        }

        Assert.Equal(pages.Count, prepared);
        Assert.True(prepared > 2, "the records cross several pages");
    }

    [Fact]
    public void AnFsync_MakesTheNextRecordsPageNeedPreparingAgain()
    {
        using var temp = new TempJournal();
        using JournalWriter writer = Open(temp.Path, FsyncPolicy.EveryBatch);

        Assert.True(writer.PrepareNextRecord());
        Assert.False(writer.PrepareNextRecord());
        Append(writer, 0);
        writer.CommitBatch(); // syncs: every written page is read-only to the kernel again

        Assert.True(writer.PrepareNextRecord());
        Assert.False(writer.PrepareNextRecord());
    }

    [Fact]
    public void PreparedPages_ReadAsTheCleanEnd_WhileWritten_AndAfterReopening()
    {
        using var temp = new TempJournal();
        string crashed = temp.Path + ".crashed";

        // Stop where the next record crosses into a new page, so the prepare writes into a page no record reached yet.
        long records = 0;
        while ((JournalTestData.RecordOffset(records + 1) - 1) / PageSize == JournalTestData.RecordOffset(records) / PageSize)
        {
            records++;
        }

        using (JournalWriter writer = Open(temp.Path, FsyncPolicy.Never))
        {
            for (long i = 0; i < records; i++)
            {
                Append(writer, i);
            }

            writer.CommitBatch();
            Assert.True(writer.PrepareNextRecord());

            // What the page cache holds now is what a SIGKILL would leave.
            File.Copy(temp.Path, crashed);
            AssertRecords(temp.Path, records);
        }

        AssertRecords(crashed, records);
        using (JournalWriter writer = Open(crashed, FsyncPolicy.Never))
        {
            Assert.True(writer.PrepareNextRecord());
            Append(writer, records);
            writer.CommitBatch();
        }

        AssertRecords(crashed, records + 1);
    }

    private static void AssertRecords(string path, long count)
    {
        var read = JournalTestData.ReadAll(path, out JournalReader reader);
        Assert.Equal(JournalReadStatus.Clean, reader.Status);
        Assert.Equal(0, reader.DroppedBytes);
        Assert.Equal(count, read.Count);
        for (int i = 0; i < read.Count; i++)
        {
            Assert.Equal(i, read[i].Sequence);
            JournalTestData.AssertSame(JournalTestData.CommandFor(i), read[i].Command);
        }
    }

    private static JournalWriter Open(string path, FsyncPolicy policy) =>
        JournalWriter.Open(path, new JournalOptions { FsyncPolicy = policy }, JournalTestData.Configuration, out _);

    private static void Append(JournalWriter writer, long i)
    {
        Command command = JournalTestData.CommandFor(i);
        writer.Append(in command, i);
    }
}
