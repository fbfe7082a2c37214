namespace Exchange.Core.Storage;

/// <summary>
/// The CRC-32 that guards every journal record and session-store record: IEEE 802.3 (reflected polynomial 0xEDB88320,
/// the zlib/PNG checksum). Files written by earlier builds carry this exact checksum, so it must never change.
/// </summary>
/// <remarks>
/// Computed by System.IO.Hashing (vectorised with carry-less multiplication where the CPU has it; no allocation). Until
/// the package mirror served that package this was our own table-driven code; the tests still compare every length
/// against a bitwise reference, so a package update that changed the result would fail them. It lives in Core because
/// its two users, the host's journal and the FIX session file store, share no other assembly.
/// </remarks>
public static class Crc32
{
    /// <summary>The CRC-32 of <paramref name="data"/>.</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => System.IO.Hashing.Crc32.HashToUInt32(data);
}
