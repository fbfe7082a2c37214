using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Exchange.Fix.Codec;

/// <summary>FIX INT / SEQNUM / LENGTH / NUMINGROUP values: optional '-' then ASCII digits, overflow checked.</summary>
public static class FixInt
{
    /// <summary>Longest decimal form of a long, sign included.</summary>
    public const int MaxLongChars = 20;

    /// <summary>Unsigned values of at most this many digits fit a long without overflow checks.</summary>
    private const int MaxSafeDigits = 18;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static FieldStatus TryParse(ReadOnlySpan<byte> value, out long result)
    {
        result = 0;
        if ((uint)(value.Length - 1) < MaxSafeDigits && value[0] != (byte)'-')
        {
            // 1..18 digits without a sign (MsgSeqNum, BodyLength, quantities): below 10^18, so no overflow checks.
            ulong small = 0;
            foreach (byte b in value)
            {
                uint digit = (uint)(b - '0');
                if (digit > 9)
                {
                    return FieldStatus.Malformed;
                }

                small = (small * 10) + digit;
            }

            result = (long)small;
            return FieldStatus.Ok;
        }

        return TryParseAny(value, out result);
    }

    /// <summary>The general form: a sign, or 19 and more digits (overflow checked).</summary>
    private static FieldStatus TryParseAny(ReadOnlySpan<byte> value, out long result)
    {
        result = 0;
        if (value.IsEmpty)
        {
            return FieldStatus.Malformed;
        }

        bool negative = value[0] == (byte)'-';
        int i = negative ? 1 : 0;
        if (i == value.Length)
        {
            return FieldStatus.Malformed;
        }

        ulong magnitude = 0;
        for (; i < value.Length; i++)
        {
            uint digit = (uint)(value[i] - '0');
            if (digit > 9)
            {
                return FieldStatus.Malformed;
            }

            if (magnitude > (ulong.MaxValue - digit) / 10)
            {
                return ConsumeRest(value, i, out result);
            }

            magnitude = (magnitude * 10) + digit;
        }

        ulong limit = negative ? (ulong)long.MaxValue + 1 : long.MaxValue;
        if (magnitude > limit)
        {
            return FieldStatus.OutOfRange;
        }

        result = negative ? (long)(0 - magnitude) : (long)magnitude;
        return FieldStatus.Ok;
    }

    public static FieldStatus TryParse(ReadOnlySpan<byte> value, out int result)
    {
        FieldStatus status = TryParse(value, out long wide);
        if (status == FieldStatus.Ok && (wide > int.MaxValue || wide < int.MinValue))
        {
            status = FieldStatus.OutOfRange;
        }

        result = status == FieldStatus.Ok ? (int)wide : 0;
        return status;
    }

    /// <summary>Writes <paramref name="value"/> in decimal; returns the byte count. Destination must hold 20 bytes.</summary>
    public static int Format(long value, Span<byte> destination)
    {
        if (value < 0)
        {
            destination[0] = (byte)'-';
            return 1 + FormatUnsigned(0 - (ulong)value, destination[1..]);
        }

        return FormatUnsigned((ulong)value, destination);
    }

    public static int FormatUnsigned(ulong value, Span<byte> destination)
    {
        int digits = CountDigits(value);
        WriteDigits(value, destination[..digits]);
        return digits;
    }

    /// <summary>Writes <paramref name="value"/> right-aligned into exactly <paramref name="destination"/>.Length digits
    /// (leading zeros when it is shorter), two digits per step from a pair table.</summary>
    public static void WriteDigits(ulong value, Span<byte> destination)
    {
        // Safe without bounds checks: every store is at an index in [0, destination.Length) and every pair index is
        // below 100 (a remainder of a division by 100), so the 2-byte read stays inside the 200-byte table.
        ref byte d = ref MemoryMarshal.GetReference(destination);
        ref byte pairs = ref MemoryMarshal.GetReference(DigitPairs);
        int i = destination.Length;
        while (i >= 2 && value > uint.MaxValue)
        {
            ulong quotient = value / 100;
            uint pair = (uint)(value - (quotient * 100));
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, i - 2), Unsafe.ReadUnaligned<ushort>(ref Unsafe.Add(ref pairs, pair * 2)));
            value = quotient;
            i -= 2;
        }

        // The rest fits 32 bits: a 32-bit division by a constant is a cheaper multiply than the 64-bit one.
        uint small = (uint)value;
        while (i >= 2)
        {
            uint quotient = small / 100;
            uint pair = small - (quotient * 100);
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, i - 2), Unsafe.ReadUnaligned<ushort>(ref Unsafe.Add(ref pairs, pair * 2)));
            small = quotient;
            i -= 2;
        }

        if (i == 1)
        {
            d = (byte)('0' + (small % 10));
        }
    }

    /// <summary>Decimal digit count (1 for 0), branch-free: the bit length gives the count within one, a table
    /// compare corrects it (bits * 1233 / 4096 is floor(bits * log10 2) for 1..64 bits).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int CountDigits(ulong value)
    {
        ulong v = value | 1;
        int bits = 64 - BitOperations.LeadingZeroCount(v);
        int approx = (bits * 1233) >> 12;
        return approx + 1 - (v < PowersOf10[approx] ? 1 : 0);
    }

    /// <summary>10^0 .. 10^19, for <see cref="CountDigits"/>.</summary>
    private static ReadOnlySpan<ulong> PowersOf10 =>
    [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ];

    /// <summary>"00" "01" ... "99": two ASCII digits per entry.</summary>
    internal static ReadOnlySpan<byte> DigitPairs =>
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"u8;

    /// <summary>An overflowing number is OutOfRange only if the rest is still digits; otherwise it is malformed.</summary>
    private static FieldStatus ConsumeRest(ReadOnlySpan<byte> value, int from, out long result)
    {
        result = 0;
        for (int i = from; i < value.Length; i++)
        {
            if ((uint)(value[i] - '0') > 9)
            {
                return FieldStatus.Malformed;
            }
        }

        return FieldStatus.OutOfRange;
    }
}
