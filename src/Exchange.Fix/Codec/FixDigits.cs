using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Exchange.Fix.Codec;

/// <summary>
/// The outbound hot path's number formatting: decimal digits built eight at a time in a register (SWAR) and stored
/// with unaligned 8-byte writes at a raw reference, without loops or bounds checks.
/// </summary>
/// <remarks>
/// Contract: the caller guarantees room. The methods store junk past the length they return (whole 8-byte words;
/// a fraction of 9..18 decimals is written at full width, then its trailing zeros are cut), but never beyond the
/// longest result of their kind plus <see cref="Slack"/>: 20 + <see cref="Slack"/> bytes for an integer,
/// <see cref="FixPrice.MaxChars"/> + <see cref="Slack"/> for a price. Callers reserve that much per value and
/// overwrite or ignore the junk. <see cref="FixMessageWriter"/> and the encoders reserve it per field or per message.
/// </remarks>
internal static class FixDigits
{
    /// <summary>Room needed beyond the longest result of a kind (see the remarks).</summary>
    public const int Slack = 8;

    private const uint TenToThe8 = 100_000_000;

    private const ulong TenToThe16 = 10_000_000_000_000_000;

    private const ulong AsciiZeros = 0x3030_3030_3030_3030UL;

    /// <summary>Lowest bit of byte 7 of a digit word: the last digit's byte.</summary>
    private const ulong LastDigitBit = 1UL << 56;

    /// <summary>Writes <paramref name="value"/> in decimal (no sign, no leading zeros) and returns its length (1..20).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int WriteUnsigned(ref byte destination, ulong value)
    {
        return value < TenToThe8 ? WriteBelow1e8(ref destination, (uint)value) : WriteAbove1e8(ref destination, value);
    }

    /// <summary><see cref="WriteUnsigned"/> of 9..20 digits: out of line, so the inlined common case stays small.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int WriteAbove1e8(ref byte destination, ulong value)
    {
        if (value < TenToThe16)
        {
            // Ids and timestamps-as-numbers: a head of 1..8 digits, then one block of 8.
            ulong high = value / TenToThe8;
            int headLength = WriteBelow1e8(ref destination, (uint)high);
            WriteFixed(ref Unsafe.Add(ref destination, headLength), (uint)(value - (high * TenToThe8)), 8);
            return headLength + 8;
        }

        return WriteLong(ref destination, value);
    }

    /// <summary>Sum of the four bytes of <paramref name="bytes"/> (at most 4 * 255).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong ByteSum(uint bytes) => (bytes & 0xFF) + ((bytes >> 8) & 0xFF) + ((bytes >> 16) & 0xFF) + (bytes >> 24);

    /// <summary>
    /// Writes <paramref name="value"/> (below 10^8) without leading zeros. The digit count comes from the digit word
    /// itself: its leading zero digits are its low zero bytes (byte 7, the last digit, is forced non-zero so 0 keeps
    /// one digit), and dropping them is a shift by whole bytes.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteBelow1e8(ref byte destination, uint value)
    {
        if (value < 10_000)
        {
            // Quantities and small ids: two digit pairs from the table are fewer steps than the 8-digit split.
            uint high = value / 100;
            ref byte pairs = ref MemoryMarshal.GetReference(FixInt.DigitPairs);
            uint text = Unsafe.ReadUnaligned<ushort>(ref Unsafe.Add(ref pairs, high * 2)) |
                        ((uint)Unsafe.ReadUnaligned<ushort>(ref Unsafe.Add(ref pairs, (value - (high * 100)) * 2)) << 16);
            int length = 1 + (value >= 10 ? 1 : 0) + (value >= 100 ? 1 : 0) + (value >= 1_000 ? 1 : 0);
            Unsafe.WriteUnaligned(ref destination, text >> ((4 - length) * 8));
            return length;
        }

        ulong digits = EightDigitValues(value);
        int shift = BitOperations.TrailingZeroCount(digits | LastDigitBit) & 0x38;
        Unsafe.WriteUnaligned(ref destination, (digits | AsciiZeros) >> shift);
        return 8 - (shift >> 3);
    }

    /// <summary>Writes exactly <paramref name="width"/> (1..8) digits of <paramref name="value"/> (below 10^width),
    /// leading zeros kept.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void WriteFixed(ref byte destination, uint value, int width) =>
        Unsafe.WriteUnaligned(ref destination, EightDigitsAscii(value) >> ((8 - width) * 8));

    /// <summary>The eight ASCII digits of <paramref name="value"/> (below 10^8), leading zeros kept, first digit in the
    /// low byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong EightDigitsAscii(uint value) => EightDigitValues(value) | AsciiZeros;

    /// <summary>
    /// Writes <paramref name="units"/> at <paramref name="decimals"/> (0..<see cref="FixPrice.MaxDecimals"/>) in the
    /// shortest exact form: trailing fraction zeros and a bare point dropped (1434000 at 4 is "143.4", 1000000 is
    /// "100", -5 at 2 is "-0.05"). Returns the length (at most <see cref="FixPrice.MaxChars"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int WritePrice(ref byte destination, long units, int decimals) =>
        (ulong)units < TenToThe8 && (uint)(decimals - 1) < 7
            ? WriteSmallPrice(ref destination, (uint)units, decimals)
            : WriteAnyPrice(ref destination, units, decimals);

    /// <summary><see cref="WritePrice"/> of a negative value, more than 8 digits, or 0 or 8+ decimals: out of line,
    /// so the inlined common case stays small.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int WriteAnyPrice(ref byte destination, long units, int decimals)
    {
        int pos = 0;
        ulong magnitude = (ulong)units;
        if (units < 0)
        {
            destination = (byte)'-';
            magnitude = 0 - magnitude;
            pos = 1;
        }

        if (magnitude < TenToThe8 && (uint)(decimals - 1) < 7)
        {
            return pos + WriteSmallPrice(ref Unsafe.Add(ref destination, pos), (uint)magnitude, decimals);
        }

        ulong whole = DivideByPow10(magnitude, decimals);
        ulong fraction = magnitude - (whole * (ulong)FixPrice.Pow10(decimals));
        pos += WriteUnsigned(ref Unsafe.Add(ref destination, pos), whole);
        if (fraction == 0)
        {
            return pos;
        }

        Unsafe.Add(ref destination, pos++) = (byte)'.';
        if (decimals <= 8)
        {
            // The fraction's digits, leading zeros kept, in the low `decimals` bytes (first digit lowest); its last
            // non-zero digit is the highest non-zero byte, which gives the shortest width.
            ulong digits = EightDigitValues((uint)fraction) >> ((8 - decimals) * 8);
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref destination, pos), digits | AsciiZeros);
            return pos + SignificantBytes(digits);
        }

        return pos + WriteLongFraction(ref Unsafe.Add(ref destination, pos), fraction, decimals);
    }

    /// <summary>
    /// The usual price: at most 8 digits in all and 1..7 decimals. One 8-digit block holds the whole part (its low
    /// 8 - decimals bytes) and the fraction (the rest), so it is split at the point instead of divided.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteSmallPrice(ref byte destination, uint magnitude, int decimals)
    {
        ulong digits = EightDigitValues(magnitude);
        int wholeSlots = 8 - decimals;

        // Leading zero digits (low zero bytes), but the whole part keeps at least its last digit ("0.05").
        int skipped = Math.Min(BitOperations.TrailingZeroCount(digits | LastDigitBit) >> 3, wholeSlots - 1);
        int wholeLength = wholeSlots - skipped;

        // The whole part's digits shifted down to the first byte (the fraction's follow; the point overwrites one).
        Unsafe.WriteUnaligned(ref destination, (digits | AsciiZeros) >> (skipped * 8));
        ulong fraction = digits >> (wholeSlots * 8);
        if (fraction == 0)
        {
            return wholeLength;
        }

        Unsafe.Add(ref destination, wholeLength) = (byte)'.';
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref destination, wholeLength + 1), fraction | AsciiZeros);
        return wholeLength + 1 + SignificantBytes(fraction);
    }

    /// <summary>Bytes up to and including the highest non-zero one: the width of a digit string without its
    /// trailing zeros (digit values, first digit lowest). <paramref name="digits"/> must not be 0.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int SignificantBytes(ulong digits) => (71 - BitOperations.LeadingZeroCount(digits)) >> 3;

    /// <summary>value / 10^decimals with a constant divisor per common case, so the JIT emits a multiply, not a division.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong DivideByPow10(ulong value, int decimals) => decimals switch
    {
        0 => value,
        1 => value / 10,
        2 => value / 100,
        3 => value / 1_000,
        4 => value / 10_000,
        5 => value / 100_000,
        6 => value / 1_000_000,
        7 => value / 10_000_000,
        8 => value / 100_000_000,
        _ => value / (ulong)FixPrice.Pow10(decimals),
    };

    /// <summary>
    /// The eight decimal digit values (0..9, not ASCII) of <paramref name="value"/> (below 10^8) packed little-endian,
    /// most significant digit in the lowest byte, so one store writes them in reading order. Splits into 4-digit,
    /// then 2-digit, then 1-digit lanes with multiply-shift divisions that are exact in these ranges
    /// (x * 10486 &gt;&gt; 20 is x / 100 for x &lt; 10^4; x * 103 &gt;&gt; 10 is x / 10 for x &lt; 100), lanes never carrying into each other.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static ulong EightDigitValues(uint value)
    {
        uint high = value / 10_000;
        ulong lanes = high | ((ulong)(value - (high * 10_000)) << 32);
        ulong hundreds = ((lanes * 10486) >> 20) & 0x0000_007F_0000_007FUL;
        ulong pairs = hundreds | ((lanes - (hundreds * 100)) << 16);
        ulong tens = ((pairs * 103) >> 10) & 0x000F_000F_000F_000FUL;
        return tens | ((pairs - (tens * 10)) << 8);
    }

    /// <summary>Values of 17..20 digits.</summary>
    private static int WriteLong(ref byte destination, ulong value)
    {
        int length = FixInt.CountDigits(value);
        WriteFixedWide(ref destination, value, length);
        return length;
    }

    /// <summary>Writes exactly <paramref name="width"/> (1..20) digits of <paramref name="value"/> (below 10^width),
    /// leading zeros kept: a head of 1..8 digits, then whole 8-digit blocks, left to right (each store's junk tail
    /// is overwritten by the next).</summary>
    private static void WriteFixedWide(ref byte destination, ulong value, int width)
    {
        if (width <= 8)
        {
            WriteFixed(ref destination, (uint)value, width);
        }
        else if (width <= 16)
        {
            ulong high = value / TenToThe8;
            WriteFixed(ref destination, (uint)high, width - 8);
            WriteFixed(ref Unsafe.Add(ref destination, width - 8), (uint)(value - (high * TenToThe8)), 8);
        }
        else
        {
            ulong top = value / TenToThe16;
            ulong rest = value - (top * TenToThe16);
            ulong middle = rest / TenToThe8;
            WriteFixed(ref destination, (uint)top, width - 16);
            WriteFixed(ref Unsafe.Add(ref destination, width - 16), (uint)middle, 8);
            WriteFixed(ref Unsafe.Add(ref destination, width - 8), (uint)(rest - (middle * TenToThe8)), 8);
        }
    }

    /// <summary>A non-zero fraction of 9..18 decimals: written with its leading zeros, then its trailing zeros cut.</summary>
    private static int WriteLongFraction(ref byte destination, ulong fraction, int decimals)
    {
        WriteFixedWide(ref destination, fraction, decimals);
        int width = decimals;
        while (Unsafe.Add(ref destination, width - 1) == (byte)'0')
        {
            width--;
        }

        return width;
    }
}
