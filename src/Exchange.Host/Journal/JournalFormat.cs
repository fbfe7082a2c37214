using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Exchange.Core.Commands;
using Exchange.Core.Storage;

namespace Exchange.Host.Journal;

/// <summary>
/// The journal file layout: a 32-byte header, then fixed-size records in ring order.
/// </summary>
/// <remarks>
/// Header: magic "EXJRNL\0\1" (8), version (4), record size (4), payload size (4), payload layout fingerprint (4),
/// reserved zero (4), CRC-32 of the preceding 28 bytes (4). All little-endian.
/// Record: sequence (8), the <see cref="Command"/> bytes as laid out in memory (payload size), CRC-32 of sequence and
/// payload (4), zero padding to a multiple of 8. A record is valid only when complete and its CRC matches, so a torn
/// write at the tail (crash mid-write) or a flipped bit is detected and never replayed.
/// </remarks>
internal static class JournalFormat
{
    public const int HeaderSize = 32;
    public const int Version = 1;
    public const ulong Magic = 0x01_00_4C_4E_52_4A_58_45; // "EXJRNL\0\x01" read little-endian

    public static readonly int PayloadSize = Unsafe.SizeOf<Command>();
    public static readonly int CrcOffset = 8 + PayloadSize;
    public static readonly int RecordSize = (CrcOffset + 4 + 7) & ~7;
    public static readonly uint PayloadFingerprint = LayoutFingerprint.Of<Command>();

    public static void WriteHeader(Span<byte> header)
    {
        header[..HeaderSize].Clear();
        BinaryPrimitives.WriteUInt64LittleEndian(header, Magic);
        BinaryPrimitives.WriteInt32LittleEndian(header[8..], Version);
        BinaryPrimitives.WriteInt32LittleEndian(header[12..], RecordSize);
        BinaryPrimitives.WriteInt32LittleEndian(header[16..], PayloadSize);
        BinaryPrimitives.WriteUInt32LittleEndian(header[20..], PayloadFingerprint);
        BinaryPrimitives.WriteUInt32LittleEndian(header[28..], Crc32.Compute(header[..28]));
    }

    /// <summary>Null when the header matches this build; otherwise why the file cannot be used.</summary>
    public static string? ValidateHeader(ReadOnlySpan<byte> header)
    {
        if (BinaryPrimitives.ReadUInt64LittleEndian(header) != Magic)
        {
            return "not a journal file (bad magic)";
        }

        if (BinaryPrimitives.ReadUInt32LittleEndian(header[28..]) != Crc32.Compute(header[..28]))
        {
            return "journal header is corrupt (CRC mismatch)";
        }

        int version = BinaryPrimitives.ReadInt32LittleEndian(header[8..]);
        int recordSize = BinaryPrimitives.ReadInt32LittleEndian(header[12..]);
        int payloadSize = BinaryPrimitives.ReadInt32LittleEndian(header[16..]);
        uint fingerprint = BinaryPrimitives.ReadUInt32LittleEndian(header[20..]);
        if (version != Version || recordSize != RecordSize || payloadSize != PayloadSize || fingerprint != PayloadFingerprint)
        {
            return $"journal was written with a different format (version {version}, record {recordSize} bytes, command {payloadSize} bytes, layout {fingerprint:X8}); "
                + $"this build uses version {Version}, record {RecordSize} bytes, command {PayloadSize} bytes, layout {PayloadFingerprint:X8}";
        }

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
