using System.Buffers.Binary;

namespace Exchange.Host.Journal;

/// <summary>What the slot where reading stopped means; <paramref name="Problem"/> says what was found when corrupt.</summary>
internal readonly record struct JournalTailVerdict(JournalReadStatus Status, string? Problem);

/// <summary>
/// Tells a torn tail (dropped with a log line) from corruption (start refused, file untouched), at the first slot after
/// the header that is not a valid record.
/// </summary>
/// <remarks>
/// <para>How records are written decides the rule. The writer copies each record into a memory map of a file it has
/// extended with zeros ahead of itself: sequence and command first, the CRC last, each byte once, at increasing
/// offsets, and nothing after a record until that record is complete. So whatever a crash leaves, the bytes after the
/// record it interrupted are still zeros; and a record is durable (and acknowledged, under EveryBatch) only once an
/// fsync has covered it and everything before it.</para>
/// <para>The rule, for that first slot and everything after it to the end of the file:</para>
/// <list type="number">
/// <item>All zeros (or nothing): the clean end.</item>
/// <item>Any non-zero byte after the slot: corruption, whatever the slot holds. A crash cuts only the last write short;
/// records after a bad one mean the bad one was once written whole, and truncating there would discard them.</item>
/// <item>Data in the slot and only zeros after it: a torn tail when the slot has the shape an interrupted write leaves:
/// the file ends inside it; or its CRC field is zero (a process crash stopped the copy before the CRC, which is written
/// last); or a whole 512-byte disk sector's share of it is zero while its CRC is there (a power loss: the page cache
/// writes a page as sectors in no fixed order, so a later sector can land without an earlier one). A complete record
/// with every sector's share holding data and a CRC that does not match was written whole and then changed: corruption,
/// even at the very end, because it may be an acknowledged order.</item>
/// </list>
/// <para>Deliberately conservative: after a power loss with Fsync Never or Periodic, pages written since the last fsync
/// can also land out of order and leave a hole before later records. That is refused too; the message gives the
/// offsets and sequences, and the operator decides. Refusing costs a restart by hand; guessing wrong loses acknowledged
/// orders.</para>
/// </remarks>
internal static class JournalTail
{
    /// <summary>The smallest unit a disk writes whole; file offsets that are multiples of it are sector boundaries.</summary>
    public const int SectorBytes = 512;

    /// <param name="slot">The slot's bytes: a whole record, or fewer where the file ends inside it.</param>
    /// <param name="offset">The slot's file offset.</param>
    /// <param name="after">What follows the slot to the end of the file.</param>
    public static JournalTailVerdict Judge(ReadOnlySpan<byte> slot, long offset, in JournalTrailingData after)
    {
        bool zero = !slot.ContainsAnyExcept((byte)0);
        if (!after.IsEmpty)
        {
            return new JournalTailVerdict(
                JournalReadStatus.Corrupt,
                $"{DescribeSlot(slot, offset, zero)}, yet {after.Describe()}. A crash only cuts the last write short, so this is not a "
                + "torn tail, and truncating here would discard those records");
        }

        if (zero)
        {
            return new JournalTailVerdict(JournalReadStatus.Clean, null);
        }

        if (slot.Length < JournalFormat.RecordSize || !slot.Slice(JournalFormat.CrcOffset, 4).ContainsAnyExcept((byte)0) || HasZeroSector(slot, offset))
        {
            return new JournalTailVerdict(JournalReadStatus.TornRecord, null);
        }

        return new JournalTailVerdict(
            JournalReadStatus.Corrupt,
            $"the last record, at offset {offset} (sequence field {Sequence(slot)}), fails its CRC although its CRC and every disk sector's "
            + "share of it were written: a crash leaves an unfinished record with its CRC or a whole sector missing, so this record was "
            + "written whole and changed since, and it may be an acknowledged order");
    }

    // The record's meaningful bytes (up to its CRC) cut at sector boundaries; true when one of the pieces is all zeros.
    private static bool HasZeroSector(ReadOnlySpan<byte> record, long offset)
    {
        int meaningful = JournalFormat.CrcOffset + 4;
        int start = 0;
        while (start < meaningful)
        {
            long nextBoundary = ((offset + start) / SectorBytes + 1) * SectorBytes;
            int end = (int)Math.Min(meaningful, nextBoundary - offset);
            if (!record[start..end].ContainsAnyExcept((byte)0))
            {
                return true;
            }

            start = end;
        }

        return false;
    }

    private static string DescribeSlot(ReadOnlySpan<byte> slot, long offset, bool zero)
    {
        if (zero)
        {
            return $"the record slot at offset {offset} is all zeros";
        }

        return slot.Slice(JournalFormat.CrcOffset, 4).ContainsAnyExcept((byte)0)
            ? $"the record at offset {offset} (sequence field {Sequence(slot)}) fails its CRC"
            : $"the record at offset {offset} (sequence field {Sequence(slot)}) is incomplete (no CRC)";
    }

    private static long Sequence(ReadOnlySpan<byte> slot) => BinaryPrimitives.ReadInt64LittleEndian(slot);
}
