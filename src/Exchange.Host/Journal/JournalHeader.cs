using System.Buffers.Binary;
using Exchange.Core.Storage;

namespace Exchange.Host.Journal;

/// <summary>What reading a journal's header found.</summary>
internal enum JournalHeaderStatus
{
    /// <summary>A header of this build's format with a readable configuration.</summary>
    Valid,

    /// <summary>
    /// The file is shorter than its header: its creation was cut short. The header is written and fsynced before the
    /// first record, so such a file holds no records and is written anew.
    /// </summary>
    Torn,

    /// <summary>Another format or version, or a damaged header: the journal must not be used.</summary>
    Refused,
}

/// <summary>
/// A journal's header: the <see cref="JournalFormat"/> prefix and two configuration slots, each able to hold one
/// generation of the <see cref="JournalConfiguration"/> the journal is written with.
/// </summary>
/// <remarks>
/// Slot: CRC-32 of the generation, length and content that follow it (4), generation (8; 0 = never written), content
/// length (4), content; since version 10 a trailer: the last sequence whose cancels replay without their Side (8), CRC-32
/// of everything from the generation to it (4); zero padding to the slot size. The trailer has its own CRC, so an
/// older build reads a version 10 slot's configuration (a mark cut short before the prefix was rewritten leaves such a
/// slot under an older prefix). Why two: when instruments or sessions are added at the end, the journal must record
/// the longer lists before any command names a new index, and the header is rewritten in place. The new generation goes
/// into the slot not in use and is fsynced; the reader takes the valid slot with the highest generation. A crash in the
/// middle of that write leaves the previous generation readable, so the journal never becomes unopenable.
/// </remarks>
internal sealed class JournalHeader
{
    public const int SlotOverhead = 16;

    /// <summary>Bytes after the content since version 10: the side-blind boundary and its CRC.</summary>
    public const int SlotTrailer = 12;

    /// <summary>
    /// <see cref="SideBlindCancelsThrough"/> of a journal begun under the side check: no cancel replays without its Side.
    /// </summary>
    public const long NoSideBlindCancels = -1;

    private JournalHeader(
        int slotBytes, long generation, JournalConfiguration configuration, long sideBlindCancelsThrough, int version = JournalFormat.Version)
    {
        Version = version;
        SlotBytes = slotBytes;
        Generation = generation;
        Configuration = configuration;
        SideBlindCancelsThrough = sideBlindCancelsThrough;
    }

    /// <summary>The format version in the prefix (older ones this build reads are marked current before appending).</summary>
    public int Version { get; }

    public int SlotBytes { get; }

    /// <summary>Where the records begin.</summary>
    public long DataStart => JournalFormat.DataStart(SlotBytes);

    /// <summary>How many times the configuration was recorded (1 for a new journal).</summary>
    public long Generation { get; }

    public JournalConfiguration Configuration { get; }

    /// <summary>
    /// The last record sequence written when a cancel was carried out whatever its Side (before version 9): cancels up to
    /// it replay with <see cref="Exchange.Core.Domain.Side.None"/>, which the engine does not check. Every sequence for a
    /// journal older than version 9; none for a version 9 journal; for version 10, what its header records: the last
    /// sequence an older journal held when it was marked, <see cref="NoSideBlindCancels"/> for one begun under the rule.
    /// Kept in the header rather than implied by the version, because marking an older journal current must not change
    /// how its earlier cancels replay on every later start.
    /// </summary>
    public long SideBlindCancelsThrough { get; }

    /// <summary>Reads the header at the start of <paramref name="file"/>; <paramref name="problem"/> says why when refused.</summary>
    public static JournalHeaderStatus Read(FileStream file, out JournalHeader? header, out string? problem)
    {
        header = null;
        problem = null;
        if (file.Length < JournalFormat.PrefixSize)
        {
            return JournalHeaderStatus.Torn;
        }

        Span<byte> prefix = stackalloc byte[JournalFormat.PrefixSize];
        RandomAccess.Read(file.SafeFileHandle, prefix, 0);

        // The prefix is checked even in a short file: a short journal of an older version must be refused, not rewritten.
        problem = JournalFormat.ValidatePrefix(prefix, out int slotBytes, out int version);
        if (problem is not null)
        {
            return JournalHeaderStatus.Refused;
        }

        if (file.Length < JournalFormat.DataStart(slotBytes))
        {
            return JournalHeaderStatus.Torn;
        }

        byte[] slots = new byte[2 * slotBytes];
        RandomAccess.Read(file.SafeFileHandle, slots, JournalFormat.PrefixSize);
        long generation = 0;
        long sideBlindCancelsThrough = version < JournalFormat.CancelSideVersion ? long.MaxValue : NoSideBlindCancels;
        JournalConfiguration? configuration = null;
        bool hasTrailer = version >= JournalFormat.SlotTrailerVersion;
        for (int i = 0; i < 2; i++)
        {
            if (TryReadSlot(slots.AsSpan(i * slotBytes, slotBytes), hasTrailer, out long slotGeneration, out JournalConfiguration? slotConfiguration, out long slotBoundary)
                && slotGeneration > generation)
            {
                generation = slotGeneration;
                configuration = slotConfiguration;
                if (hasTrailer)
                {
                    sideBlindCancelsThrough = slotBoundary;
                }
            }
        }

        if (configuration is null)
        {
            problem = $"journal header holds no readable configuration (both slots of {slotBytes} bytes at offset {JournalFormat.PrefixSize} fail their checks)";
            return JournalHeaderStatus.Refused;
        }

        header = new JournalHeader(slotBytes, generation, configuration, sideBlindCancelsThrough, version);
        return JournalHeaderStatus.Valid;
    }

    /// <summary>
    /// Marks a journal of an older version this build reads as the current version, before the first append, so a build
    /// of the older version refuses it from then on: records <paramref name="configuration"/> as the next generation with
    /// the side-blind boundary (<paramref name="lastSequence"/> for a journal older than the side check, none for a
    /// version 9 one), then rewrites the prefix, each fsynced.
    /// A crash between the two leaves the older version's prefix, under which the new slot's trailer is not read: the
    /// journal replays as before and is marked again. Null (with <paramref name="problem"/>, nothing written) when the
    /// configuration does not fit.
    /// </summary>
    public JournalHeader? MarkCurrentVersion(FileStream file, JournalConfiguration configuration, long lastSequence, out string? problem)
    {
        JournalHeader? recorded = Record(file, configuration, Math.Min(SideBlindCancelsThrough, lastSequence), JournalFormat.Version, out problem);
        if (recorded is null)
        {
            return null;
        }

        Span<byte> prefix = stackalloc byte[JournalFormat.PrefixSize];
        JournalFormat.WritePrefix(prefix, SlotBytes);
        RandomAccess.Write(file.SafeFileHandle, prefix, 0);
        file.Flush(flushToDisk: true);
        return recorded;
    }

    /// <summary>Empties <paramref name="file"/> and writes a header recording <paramref name="configuration"/> (generation 1), fsynced.</summary>
    public static JournalHeader WriteNew(FileStream file, JournalConfiguration configuration)
    {
        int slotBytes = JournalFormat.SlotBytesFor(configuration.EncodedLength);
        var header = new JournalHeader(slotBytes, 1, configuration, NoSideBlindCancels);
        byte[] bytes = new byte[header.DataStart];
        JournalFormat.WritePrefix(bytes, slotBytes);
        WriteSlot(bytes.AsSpan(SlotOffset(slotBytes, 1), slotBytes), 1, configuration, NoSideBlindCancels);
        file.SetLength(0);
        file.Position = 0;
        file.Write(bytes);
        file.Flush(flushToDisk: true);
        return header;
    }

    /// <summary>
    /// Records <paramref name="configuration"/> as the next generation in the slot not in use, fsynced, keeping
    /// <see cref="SideBlindCancelsThrough"/>; null (with <paramref name="problem"/>) when it does not fit the slots this
    /// journal was created with. For a journal of the current version (an older one is marked first).
    /// </summary>
    public JournalHeader? Record(FileStream file, JournalConfiguration configuration, out string? problem) =>
        Record(file, configuration, SideBlindCancelsThrough, Version, out problem);

    private JournalHeader? Record(FileStream file, JournalConfiguration configuration, long sideBlindCancelsThrough, int version, out string? problem)
    {
        problem = null;
        if (SlotOverhead + configuration.EncodedLength + SlotTrailer > SlotBytes)
        {
            problem = $"the configuration now takes {configuration.EncodedLength} bytes, more than the {SlotBytes - SlotOverhead - SlotTrailer} the journal's header "
                + "was created with room for; move the journal away to begin a new one";
            return null;
        }

        long generation = Generation + 1;
        byte[] slot = new byte[SlotBytes];
        WriteSlot(slot, generation, configuration, sideBlindCancelsThrough);
        file.Position = SlotOffset(SlotBytes, generation);
        file.Write(slot);
        file.Flush(flushToDisk: true);
        return new JournalHeader(SlotBytes, generation, configuration, sideBlindCancelsThrough, version);
    }

    private static int SlotOffset(int slotBytes, long generation) => JournalFormat.PrefixSize + ((int)(generation & 1) * slotBytes);

    private static void WriteSlot(Span<byte> slot, long generation, JournalConfiguration configuration, long sideBlindCancelsThrough)
    {
        int length = configuration.EncodedLength;
        int trailer = SlotOverhead + length;
        slot.Clear();
        BinaryPrimitives.WriteInt64LittleEndian(slot[4..], generation);
        BinaryPrimitives.WriteInt32LittleEndian(slot[12..], length);
        configuration.Encode(slot.Slice(SlotOverhead, length));
        BinaryPrimitives.WriteUInt32LittleEndian(slot, Crc32.Compute(slot[4..trailer]));
        BinaryPrimitives.WriteInt64LittleEndian(slot[trailer..], sideBlindCancelsThrough);
        BinaryPrimitives.WriteUInt32LittleEndian(slot[(trailer + 8)..], Crc32.Compute(slot[4..(trailer + 8)]));
    }

    private static bool TryReadSlot(
        ReadOnlySpan<byte> slot, bool hasTrailer, out long generation, out JournalConfiguration? configuration, out long sideBlindCancelsThrough)
    {
        configuration = null;
        sideBlindCancelsThrough = 0;
        generation = BinaryPrimitives.ReadInt64LittleEndian(slot[4..]);
        int length = BinaryPrimitives.ReadInt32LittleEndian(slot[12..]);
        if (generation <= 0 || length < 0 || length > slot.Length - SlotOverhead - (hasTrailer ? SlotTrailer : 0)
            || BinaryPrimitives.ReadUInt32LittleEndian(slot) != Crc32.Compute(slot[4..(SlotOverhead + length)]))
        {
            return false;
        }

        if (hasTrailer)
        {
            int trailer = SlotOverhead + length;
            sideBlindCancelsThrough = BinaryPrimitives.ReadInt64LittleEndian(slot[trailer..]);
            if (BinaryPrimitives.ReadUInt32LittleEndian(slot[(trailer + 8)..]) != Crc32.Compute(slot[4..(trailer + 8)])
                || sideBlindCancelsThrough < NoSideBlindCancels)
            {
                return false;
            }
        }

        configuration = JournalConfiguration.TryDecode(slot.Slice(SlotOverhead, length));
        return configuration is not null;
    }
}
