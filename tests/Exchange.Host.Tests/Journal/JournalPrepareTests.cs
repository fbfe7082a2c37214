using Exchange.Core.Commands;
using Exchange.Host.Journal;
using Xunit;
using Exchange.Tests.Shared;

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
            byte[] before = SharedFile.ReadAll(temp.Path);
            Assert.True(writer.PrepareNextRecord());
            Assert.Equal(before, SharedFile.ReadAll(temp.Path)); // zeros written over zeros: not a byte changed

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

    /// <summary>
    /// The point of preparing: the record that crosses into a new page takes no page fault of its own once the page was
    /// prepared, and does take one when it was not (minor faults of this thread, from /proc; Linux only).
    /// </summary>
    [Fact]
    public void A_record_in_a_prepared_page_takes_no_page_fault_and_one_in_an_unprepared_page_does()
    {
        if (!OperatingSystem.IsLinux() || !File.Exists("/proc/thread-self/stat"))
        {
            return;
        }

        using var temp = new TempJournal();
        using JournalWriter writer = Open(temp.Path, FsyncPolicy.Never);
        using var faultCounter = new ThreadFaultCounter();
        long next = 0;
        long FaultsOfAppendsUpTo(long pageCrossingRecord, bool prepare)
        {
            // Records up to the page-crossing one first (their page faulted in already), then the crossing one alone.
            for (; next < pageCrossingRecord; next++)
            {
                Append(writer, next);
            }

            writer.CommitBatch();
            if (prepare)
            {
                Assert.True(writer.PrepareNextRecord());
            }

            Command command = JournalTestData.CommandFor(next);
            long faults = faultCounter.Read();
            writer.Append(in command, next);
            faults = faultCounter.Read() - faults;
            next++;
            writer.CommitBatch();
            return faults;
        }

        FaultsOfAppendsUpTo(NextPageCrossing(0), prepare: true); // warms the code paths up

        // Other work on the machine can add a fault to a reading (the kernel's writeback write-protecting the prepared
        // page under I/O pressure, say), so each outcome needs to be seen once in a few rounds, not in every round. A
        // preparation that did nothing fails every round all the same.
        var unprepared = new List<long>();
        var prepared = new List<long>();
        for (int round = 0; round < 5 && !(unprepared.Exists(f => f >= 1) && prepared.Contains(0)); round++)
        {
            unprepared.Add(FaultsOfAppendsUpTo(NextPageCrossing(next), prepare: false));
            prepared.Add(FaultsOfAppendsUpTo(NextPageCrossing(next), prepare: true));
        }

        Assert.True(unprepared.Exists(f => f >= 1), $"a first write to a fresh page faults ({string.Join(", ", unprepared)})");
        Assert.True(prepared.Contains(0), $"a write to a prepared page does not ({string.Join(", ", prepared)})");
    }

    /// <summary>The first record from <paramref name="from"/> on whose bytes start in one page and end in the next (or start a page).</summary>
    private static long NextPageCrossing(long from)
    {
        long i = from;
        while ((JournalTestData.RecordOffset(i + 1) - 1) / PageSize == JournalTestData.RecordOffset(i) / PageSize &&
               JournalTestData.RecordOffset(i) % PageSize != 0)
        {
            i++;
        }

        return i;
    }

    /// <summary>
    /// Minor page faults of the thread that created it: field 10 of /proc/thread-self/stat, read through a handle opened
    /// once into a buffer allocated once, so taking a reading touches no fresh memory of its own.
    /// </summary>
    private sealed class ThreadFaultCounter : IDisposable
    {
        private readonly Microsoft.Win32.SafeHandles.SafeFileHandle _stat = File.OpenHandle("/proc/thread-self/stat");
        private readonly byte[] _buffer = new byte[4096];

        public long Read()
        {
            int length = RandomAccess.Read(_stat, _buffer, 0);

            // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
            string stat = System.Text.Encoding.ASCII.GetString(_buffer, 0, length);
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return long.Parse(fields[7], System.Globalization.CultureInfo.InvariantCulture);
        }

        public void Dispose() => _stat.Dispose();
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
