namespace Exchange.Fix.Codec;

/// <summary>Eight ASCII digits at a time (SWAR), packed little-endian in a <see cref="ulong"/> (first digit in the low byte).</summary>
internal static class AsciiDigits
{
    /// <summary>True when all 8 bytes are ASCII digits: high nibble 3 and low nibble + 6 below 16.
    /// A byte's carry can only spill into a byte that already fails the high-nibble test.</summary>
    public static bool AreEightDigits(ulong bytes) =>
        ((bytes & 0xF0F0F0F0F0F0F0F0UL) | (((bytes + 0x0606060606060606UL) & 0xF0F0F0F0F0F0F0F0UL) >> 4)) == 0x3333333333333333UL;

    /// <summary>
    /// The value of 8 digits by pairwise merges. Only each byte's low nibble is used, so zero bytes count as leading
    /// zeros (callers shift shorter numbers to the top). The bytes must be digits (or zero); nothing is checked here.
    /// </summary>
    public static uint EightDigits(ulong bytes)
    {
        bytes = ((bytes & 0x0F0F0F0F0F0F0F0FUL) * 2561) >> 8;
        bytes = ((bytes & 0x00FF00FF00FF00FFUL) * 6553601) >> 16;
        return (uint)(((bytes & 0x0000FFFF0000FFFFUL) * 42949672960001) >> 32);
    }
}
