using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Exchange.Core.Commands;
using Exchange.Core.Storage;

namespace Exchange.Host.Journal;

/// <summary>
/// The journal file layout (version 10): a 32-byte prefix, two configuration slots (<see cref="JournalHeader"/>), then
/// fixed-size records in ring order from <see cref="DataStart"/>.
/// </summary>
/// <remarks>
/// Prefix: magic "EXJRNL\0\1" (8), version (4), record size (4), payload size (4), payload layout fingerprint (4),
/// configuration slot size (4), CRC-32 of the preceding 28 bytes (4). All little-endian. Version 1 had no configuration
/// slots (records began at 32, and the slot size field was reserved zero). Version 3 records the day's ClOrdID limit in
/// the configuration, and marks the engine rule that ClOrdIDs are unique per owner per trading day: a journal written
/// under the older rule (ids of finished orders reusable) would replay differently, so it is refused, not replayed.
/// Version 4 marks the <see cref="CommandType.ReserveEventIds"/> command and the refusal of replaces that change
/// OrdType or TimeInForce. A journal written by a version 3 build holds neither (its replaces leave both zero), so it
/// replays the same under version 4's rules: this build reads it, and marks it version 4 before appending, after which
/// a version 3 build refuses it instead of replaying it differently. Version 5 marks the refused-request commands
/// (<see cref="CommandType.CancelRefused"/>, <see cref="CommandType.ReplaceRefused"/>), which an older build would answer
/// with an unknown-command reject; a version 3 or 4 journal holds none, so it is read and marked version 5 the same way.
/// Version 6 marks the rule that the id of a GoodTillCancel order carried over a new trading day stays used all that day
/// (recorded as the day's when the order ends or is replaced, and not usable by a cancel while it rests; before, such
/// an id was free again once its order ended), and the <see cref="CommandType.StatusRequest"/> and
/// <see cref="CommandType.MassCancel"/> commands, and a possible resend of an ended order answered with its status (one
/// event either way). An older journal replays the same under it unless a new day carried an order over, so one with a
/// <see cref="CommandType.NewTradingDay"/> after a GoodTillCancel order is refused at that record
/// (<see cref="CarriedIdsVersion"/>); any other is read and marked version 6. Version 7 marks the
/// <see cref="CommandType.CancelOnDisconnect"/> command, which an older build would answer with an unknown-command
/// reject; an older journal holds none, so it is read and marked version 7 (the version 3-5 rule above still applies).
/// Version 8 marks the <see cref="CommandType.ReserveEventAndOrderIds"/> command, which an older build would answer with
/// an unknown-command reject; an older journal holds none (its reservations are <see cref="CommandType.ReserveEventIds"/>,
/// which still reserve event ids only), so it is read and marked version 8 the same way.
/// Version 9 marks the rule that a cancel naming an order of the other side is refused
/// (<see cref="Exchange.Core.Events.RejectReason.CancelSideMismatch"/>). An older journal's cancels carried out whatever
/// their Side, so they are replayed with <see cref="Exchange.Core.Domain.Side.None"/>, which the engine does not check
/// (<see cref="CancelSideVersion"/>). Version 10 records in the header the last sequence whose cancels replay so
/// (<see cref="JournalHeader.SideBlindCancelsThrough"/>, <see cref="SlotTrailerVersion"/>): an older journal is marked
/// version 10 with the last sequence it held, so its own cancels replay without their Side on every later start and
/// the ones appended after the mark with it. A version 9 journal checked every cancel it holds (a version 8 journal
/// that a version 9 build marked had its boundary lost then), so it is marked with none.
/// The version is bumped whenever the engine's rules change what a journalled command does; a change of the
/// <see cref="Command"/> layout (such as the self-trade prevention byte new orders and replaces carry since version 7)
/// is refused by the layout fingerprint instead, whatever the version.
/// Record: sequence (8), the <see cref="Command"/> bytes as laid out in memory (payload size), CRC-32 of sequence and
/// payload (4), zero padding to a multiple of 8. A record is valid only when complete and its CRC matches; what a
/// slot that is not valid means (the clean end, a torn tail or corruption) is <see cref="JournalTail"/>'s rule.
/// </remarks>
internal static class JournalFormat
{
    public const int PrefixSize = 32;

    public const int Version = 10;

    /// <summary>The first version whose new trading days record the carried orders' ids (see the remarks).</summary>
    public const int CarriedIdsVersion = 6;

    /// <summary>The first version whose cancels are refused when their Side is not the order's (see the remarks).</summary>
    public const int CancelSideVersion = 9;

    /// <summary>The first version whose configuration slots record the side-blind boundary (see the remarks).</summary>
    public const int SlotTrailerVersion = 10;

    /// <summary>The oldest version this build replays the same as the build that wrote it (see the remarks).</summary>
    public const int OldestReadableVersion = 3;
    public const ulong Magic = 0x01_00_4C_4E_52_4A_58_45; // "EXJRNL\0\x01" read little-endian

    /// <summary>
    /// Smallest configuration slot: room for about a thousand instruments, so an operator can add symbols for a long
    /// time before a journal has to be started anew. Larger configurations get four times their size.
    /// </summary>
    public const int MinConfigurationSlotBytes = 64 * 1024;

    /// <summary>Largest slot size a header may declare; more means the field is garbage.</summary>
    public const int MaxConfigurationSlotBytes = 256 * 1024 * 1024;

    public static readonly int PayloadSize = Unsafe.SizeOf<Command>();
    public static readonly int CrcOffset = 8 + PayloadSize;
    public static readonly int RecordSize = (CrcOffset + 4 + 7) & ~7;
    public static readonly uint PayloadFingerprint = LayoutFingerprint.Of<Command>();

    /// <summary>Where records begin in a journal whose configuration slots are <paramref name="slotBytes"/> each.</summary>
    public static long DataStart(int slotBytes) => PrefixSize + (2L * slotBytes);

    /// <summary>The slot size a new journal gets for a configuration that encodes to <paramref name="configurationBytes"/>.</summary>
    public static int SlotBytesFor(int configurationBytes)
    {
        long wanted = 4L * (JournalHeader.SlotOverhead + configurationBytes + JournalHeader.SlotTrailer);
        long pages = (wanted + 4095) / 4096 * 4096;
        return (int)Math.Clamp(pages, MinConfigurationSlotBytes, MaxConfigurationSlotBytes);
    }

    public static void WritePrefix(Span<byte> prefix, int slotBytes)
    {
        prefix[..PrefixSize].Clear();
        BinaryPrimitives.WriteUInt64LittleEndian(prefix, Magic);
        BinaryPrimitives.WriteInt32LittleEndian(prefix[8..], Version);
        BinaryPrimitives.WriteInt32LittleEndian(prefix[12..], RecordSize);
        BinaryPrimitives.WriteInt32LittleEndian(prefix[16..], PayloadSize);
        BinaryPrimitives.WriteUInt32LittleEndian(prefix[20..], PayloadFingerprint);
        BinaryPrimitives.WriteInt32LittleEndian(prefix[24..], slotBytes);
        BinaryPrimitives.WriteUInt32LittleEndian(prefix[28..], Crc32.Compute(prefix[..28]));
    }

    /// <summary>
    /// Null when the prefix is one this build reads (with its slot size and version); otherwise why the file cannot be used.
    /// </summary>
    public static string? ValidatePrefix(ReadOnlySpan<byte> prefix, out int slotBytes, out int version)
    {
        slotBytes = 0;
        version = 0;
        if (BinaryPrimitives.ReadUInt64LittleEndian(prefix) != Magic)
        {
            return "not a journal file (bad magic)";
        }

        if (BinaryPrimitives.ReadUInt32LittleEndian(prefix[28..]) != Crc32.Compute(prefix[..28]))
        {
            return "journal header is corrupt (CRC mismatch)";
        }

        version = BinaryPrimitives.ReadInt32LittleEndian(prefix[8..]);
        if (version < OldestReadableVersion || version > Version)
        {
            return $"journal format version {version}; this build reads versions {OldestReadableVersion} to {Version} only (version 2 added the "
                + "instrument and session lists the journal was written with; version 3 the per-day ClOrdID rule and limit, and version 4 the "
                + "event-id reservation and the refusal of replaces that change OrdType or TimeInForce, version 5 the refused-request commands, "
                + "version 6 the ids of orders carried into a new day, the order status request and the mass cancel, version 7 the cancel on disconnect, version 8 the reservation of order ids, version 9 the side check of cancels, version 10 which cancels replay without it, all of which change what a command does). "
                + "Start it with the build that wrote it, or move it away to begin a new journal";
        }

        int recordSize = BinaryPrimitives.ReadInt32LittleEndian(prefix[12..]);
        int payloadSize = BinaryPrimitives.ReadInt32LittleEndian(prefix[16..]);
        uint fingerprint = BinaryPrimitives.ReadUInt32LittleEndian(prefix[20..]);
        if (recordSize != RecordSize || payloadSize != PayloadSize || fingerprint != PayloadFingerprint)
        {
            return $"journal was written with a different format (record {recordSize} bytes, command {payloadSize} bytes, layout {fingerprint:X8}); "
                + $"this build uses record {RecordSize} bytes, command {PayloadSize} bytes, layout {PayloadFingerprint:X8}";
        }

        int declared = BinaryPrimitives.ReadInt32LittleEndian(prefix[24..]);
        if (declared < MinConfigurationSlotBytes || declared > MaxConfigurationSlotBytes || declared % 8 != 0)
        {
            return $"journal header declares configuration slots of {declared} bytes, outside {MinConfigurationSlotBytes}..{MaxConfigurationSlotBytes}";
        }

        slotBytes = declared;
        return null;
    }

    /// <summary>Encodes one record into <paramref name="record"/> (exactly <see cref="RecordSize"/> bytes).</summary>
    public static void WriteRecord(Span<byte> record, long sequence, in Command command)
    {
        BinaryPrimitives.WriteInt64LittleEndian(record, sequence);
        MemoryMarshal.AsBytes(new ReadOnlySpan<Command>(in command)).CopyTo(record[8..]);
        BinaryPrimitives.WriteUInt32LittleEndian(record[CrcOffset..], Crc32.Compute(record[..CrcOffset]));
        record[(CrcOffset + 4)..RecordSize].Clear();
    }

    /// <summary>Decodes one complete record; false when its CRC does not match.</summary>
    public static bool TryReadRecord(ReadOnlySpan<byte> record, out long sequence, out Command command)
    {
        command = default;
        sequence = BinaryPrimitives.ReadInt64LittleEndian(record);
        if (BinaryPrimitives.ReadUInt32LittleEndian(record[CrcOffset..]) != Crc32.Compute(record[..CrcOffset]))
        {
            return false;
        }

        record.Slice(8, PayloadSize).CopyTo(MemoryMarshal.AsBytes(new Span<Command>(ref command)));
        return true;
    }
}
