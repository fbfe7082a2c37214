using Exchange.Core.Commands;
using Exchange.Host.Journal;
using Xunit;

namespace Exchange.Host.Tests.Journal;

/// <summary>
/// Torn tail or corruption (<see cref="JournalTail"/>): only what a crash can leave at the end is dropped; anything
/// else refuses the open and leaves the file exactly as it was.
/// </summary>
public class JournalTailTests
{
    private const int Count = 10;

    public enum Damage
    {
        FlippedBit,
        MissingCrc,
        ZeroedRecord,
    }

    [Theory]
    [InlineData(Damage.FlippedBit)]
    [InlineData(Damage.MissingCrc)]
    [InlineData(Damage.ZeroedRecord)]
    public void DamageToAMiddleRecord_RefusesTheOpen_AndLeavesTheFileByteIdentical(Damage damage)
    {
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, Count);
        long offset = JournalTestData.RecordOffset(4);
        Inflict(temp.Path, offset, damage);
        byte[] before = File.ReadAllBytes(temp.Path);

        var replayed = new List<long>();
        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(
            temp.Path, new JournalOptions(), JournalTestData.Configuration, (long sequence, in Command _) => replayed.Add(sequence), out _));

        Assert.Equal(JournalRefusal.Corruption, error.Reason);
        Assert.Contains(temp.Path, error.Message, StringComparison.Ordinal);
        Assert.Contains($"at offset {offset}", error.Message, StringComparison.Ordinal);
        Assert.Contains("5 valid records (sequences 5..9)", error.Message, StringComparison.Ordinal);
        Assert.Equal([0, 1, 2, 3], replayed);
        Assert.Equal(before, File.ReadAllBytes(temp.Path));
    }

    [Fact]
    public void AReader_StopsBeforeACorruptRecord_AndSaysWhatFollowsIt()
    {
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, Count);
        JournalTestData.FlipBit(temp.Path, JournalTestData.RecordOffset(7) + 30);

        List<(long Sequence, Command Command)> records = JournalTestData.ReadAll(temp.Path, out JournalReader reader);

        Assert.Equal(7, records.Count);
        Assert.Equal(JournalReadStatus.Corrupt, reader.Status);
        Assert.Equal(JournalTestData.RecordOffset(7), reader.StopOffset);
        Assert.Equal(0, reader.DroppedBytes);
        Assert.Contains("fails its CRC", reader.Problem, StringComparison.Ordinal);
        Assert.Contains("2 valid records (sequences 8..9)", reader.Problem, StringComparison.Ordinal);
    }

    [Fact]
    public void ZerosThenDataFarBeyondTheLastRecord_IsCorruption()
    {
        // A clean end must be zeros to the end of the file: a stray block far into the map chunk is not a clean end.
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, Count);
        long end = new FileInfo(temp.Path).Length;
        using (var file = new FileStream(temp.Path, FileMode.Open, FileAccess.Write))
        {
            file.Position = end + (100L * JournalFormat.RecordSize) + 3;
            file.WriteByte(0x7F);
        }

        byte[] before = File.ReadAllBytes(temp.Path);
        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.Configuration, out _));

        Assert.Contains($"the record slot at offset {end} is all zeros", error.Message, StringComparison.Ordinal);
        Assert.Contains($"data that is not a valid record lies from offset {end + (100L * JournalFormat.RecordSize) + 3}", error.Message, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(temp.Path));
    }

    [Fact]
    public void ABadCrcInTheLastRecord_WithEverySectorWritten_IsCorruption_EvenWithOnlyZerosAfterIt()
    {
        // A crash leaves an unfinished record with its CRC or a whole sector missing. This one has both, so it was written
        // whole and changed later: it may be an acknowledged order, and dropping it would lose it silently.
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, Count);
        AppendZeros(temp.Path, 64 * JournalFormat.RecordSize); // the map chunk a crash leaves
        long last = JournalTestData.RecordOffset(Count - 1);
        JournalTestData.FlipBit(temp.Path, last + 20);
        byte[] before = File.ReadAllBytes(temp.Path);

        var error = Assert.Throws<JournalRefusedException>(() => JournalWriter.Open(temp.Path, new JournalOptions(), JournalTestData.Configuration, out _));

        Assert.Equal(JournalRefusal.Corruption, error.Reason);
        Assert.Contains($"the last record, at offset {last} (sequence field {Count - 1}), fails its CRC", error.Message, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(temp.Path));
    }

    [Fact]
    public void ALastRecordWithoutItsCrc_FollowedByZeros_IsATornTail_AndIsDropped()
    {
        // A process crash in the middle of the copy: the CRC, written last, is still zero.
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, Count);
        AppendZeros(temp.Path, 64 * JournalFormat.RecordSize);
        JournalTestData.Zero(temp.Path, JournalTestData.RecordOffset(Count - 1) + JournalFormat.CrcOffset - 20, 24);

        AssertTornTailDropped(temp.Path);
    }

    [Fact]
    public void ALastRecordMissingAnEarlierSector_FollowedByZeros_IsATornTail_AndIsDropped()
    {
        // A power loss: the page cache wrote the record's later sector (with the CRC) but not its earlier one.
        int straddling = FirstRecordAcrossASectorBoundary();
        using var temp = new TempJournal();
        JournalTestData.Write(temp.Path, straddling + 1);
        AppendZeros(temp.Path, 64 * JournalFormat.RecordSize);
        long offset = JournalTestData.RecordOffset(straddling);
        long boundary = ((offset / JournalTail.SectorBytes) + 1) * JournalTail.SectorBytes;
        JournalTestData.Zero(temp.Path, offset, (int)(boundary - offset));

        AssertTornTailDropped(temp.Path, straddling);
    }

    // The zero map chunk after the torn record is not counted as dropped: it never held data.
    private static void AssertTornTailDropped(string path, int kept = Count - 1)
    {
        using (JournalWriter writer = JournalWriter.Open(path, new JournalOptions(), JournalTestData.Configuration, out JournalScan scan))
        {
            Assert.Equal(JournalReadStatus.TornRecord, scan.Status);
            Assert.Equal(kept, scan.Records);
            Assert.Equal(JournalTestData.RecordOffset(kept), scan.GoodLength);
            Assert.Contains($"dropped torn record at offset {scan.GoodLength} ({JournalFormat.RecordSize} bytes)", scan.Describe(), StringComparison.Ordinal);
        }

        Assert.Equal(JournalTestData.RecordOffset(kept), new FileInfo(path).Length);
    }

    private static int FirstRecordAcrossASectorBoundary()
    {
        for (int i = 0; ; i++)
        {
            long start = JournalTestData.RecordOffset(i);
            if (start / JournalTail.SectorBytes != (start + JournalFormat.CrcOffset + 3) / JournalTail.SectorBytes
                && start % JournalTail.SectorBytes != 0)
            {
                return i;
            }
        }
    }

    private static void Inflict(string path, long offset, Damage damage)
    {
        switch (damage)
        {
            case Damage.FlippedBit:
                JournalTestData.FlipBit(path, offset + 30);
                break;
            case Damage.MissingCrc:
                JournalTestData.Zero(path, offset + JournalFormat.CrcOffset, 4);
                break;
            default:
                JournalTestData.Zero(path, offset, JournalFormat.RecordSize);
                break;
        }
    }

    private static void AppendZeros(string path, int bytes)
    {
        using var file = new FileStream(path, FileMode.Append);
        file.Write(new byte[bytes]);
    }
}
