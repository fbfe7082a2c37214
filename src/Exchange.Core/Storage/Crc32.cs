using System.Buffers.Binary;

namespace Exchange.Core.Storage;

/// <summary>
/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, the zlib/PNG checksum), table driven, slicing by 8 bytes.
/// </summary>
/// <remarks>
/// Our own code because System.IO.Hashing is not available; allocation-free after the static tables. It lives in Core
/// because its two users, the host's journal and the FIX session file store, share no other assembly.
/// </remarks>
public static class Crc32
{
    private const uint Polynomial = 0xEDB88320u;

    // Eight 256-entry tables back to back: table k advances the CRC over a byte followed by k zero bytes.
    private static readonly uint[] Tables = BuildTables();

    /// <summary>The CRC-32 of <paramref name="data"/>.</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => ~Update(0xFFFFFFFFu, data);

    private static uint Update(uint crc, ReadOnlySpan<byte> data)
    {
        ReadOnlySpan<uint> t = Tables;
        while (data.Length >= 8)
        {
            uint one = BinaryPrimitives.ReadUInt32LittleEndian(data) ^ crc;
            uint two = BinaryPrimitives.ReadUInt32LittleEndian(data[4..]);
            crc = t[(7 * 256) + (int)(one & 0xFF)]
                ^ t[(6 * 256) + (int)((one >> 8) & 0xFF)]
                ^ t[(5 * 256) + (int)((one >> 16) & 0xFF)]
                ^ t[(4 * 256) + (int)(one >> 24)]
                ^ t[(3 * 256) + (int)(two & 0xFF)]
                ^ t[(2 * 256) + (int)((two >> 8) & 0xFF)]
                ^ t[256 + (int)((two >> 16) & 0xFF)]
                ^ t[(int)(two >> 24)];
            data = data[8..];
        }

        foreach (byte value in data)
        {
            crc = (crc >> 8) ^ t[(int)((crc ^ value) & 0xFF)];
        }

        return crc;
    }

    private static uint[] BuildTables()
    {
        var tables = new uint[8 * 256];
        for (uint n = 0; n < 256; n++)
        {
            uint c = n;
            for (int bit = 0; bit < 8; bit++)
            {
                c = (c & 1) != 0 ? Polynomial ^ (c >> 1) : c >> 1;
            }

            tables[n] = c;
        }

        for (int k = 1; k < 8; k++)
        {
            for (int n = 0; n < 256; n++)
            {
                uint previous = tables[((k - 1) * 256) + n];
                tables[(k * 256) + n] = (previous >> 8) ^ tables[(int)(previous & 0xFF)];
            }
        }

        return tables;
    }
}
