using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Exchange.Fix.Codec;

/// <summary>
/// Exact fixed-point decimals (FIX PRICE, QTY, AMT, FLOAT): "[-]digits[.digits]" to a long count of 10^-decimals
/// units. Digits beyond <c>decimals</c> must be zeros, otherwise the value is <see cref="FieldStatus.OffScale"/>:
/// a price is never rounded silently.
/// </summary>
public static class FixPrice
{
    /// <summary>Largest supported number of decimals (10^18 still fits a long).</summary>
    public const int MaxDecimals = 18;

    /// <summary>Upper bound of <see cref="Format"/>'s output: sign, 19 digits, point, leading "0".</summary>
    public const int MaxChars = 22;

    /// <summary>10^k for k = 0..<see cref="MaxDecimals"/>, as constant data (no static field to load).</summary>
    private static ReadOnlySpan<long> PowersOf10 =>
    [
        1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000, 10000000000, 100000000000,
        1000000000000, 10000000000000, 100000000000000, 1000000000000000, 10000000000000000, 100000000000000000,
        1000000000000000000,
    ];

    /// <summary>long.MaxValue / 10^k for k = 0..<see cref="MaxDecimals"/>: the largest magnitude that 10^k scales within a long.</summary>
    private static ReadOnlySpan<ulong> LargestScalable =>
    [
        9223372036854775807, 922337203685477580, 92233720368547758, 9223372036854775, 922337203685477, 92233720368547,
        9223372036854, 922337203685, 92233720368, 9223372036, 922337203, 92233720, 9223372, 922337, 92233, 9223, 922, 92, 9,
    ];

    public static FieldStatus TryParse(ReadOnlySpan<byte> value, int decimals, out long units)
    {
        units = 0;
        if ((uint)decimals > MaxDecimals)
        {
            throw new ArgumentOutOfRangeException(nameof(decimals));
        }

        if (value.IsEmpty)
        {
            return FieldStatus.Malformed;
        }

        if (value.Length + decimals <= MaxSafeDigits)
        {
            return TryParseShort(value, decimals, out units);
        }

        bool negative = value[0] == (byte)'-';
        int i = negative ? 1 : 0;
        ulong magnitude = 0;
        bool overflow = false;
        int digits = 0;
        for (; i < value.Length && value[i] != (byte)'.'; i++)
        {
            uint digit = (uint)(value[i] - '0');
            if (digit > 9)
            {
                return FieldStatus.Malformed;
            }

            digits++;
            overflow |= !Accumulate(ref magnitude, digit);
        }

        int fraction = 0;
        bool offScale = false;
        if (i < value.Length)
        {
            for (i++; i < value.Length; i++)
            {
                uint digit = (uint)(value[i] - '0');
                if (digit > 9)
                {
                    return FieldStatus.Malformed;
                }

                digits++;
                if (fraction < decimals)
                {
                    overflow |= !Accumulate(ref magnitude, digit);
                    fraction++;
                }
                else
                {
                    offScale |= digit != 0;
                }
            }
        }

        if (digits == 0)
        {
            return FieldStatus.Malformed;
        }

        if (offScale)
        {
            return FieldStatus.OffScale;
        }

        for (; fraction < decimals && !overflow; fraction++)
        {
            overflow |= !Accumulate(ref magnitude, 0);
        }

        if (overflow || magnitude > long.MaxValue)
        {
            return FieldStatus.OutOfRange;
        }

        units = negative ? -(long)magnitude : (long)magnitude;
        return FieldStatus.Ok;
    }

    /// <summary>
    /// Values whose length plus <c>decimals</c> is at most this many bytes hold at most 18 significant digits once
    /// scaled, so the result fits a long and <see cref="TryParseShort"/> needs no overflow checks.
    /// </summary>
    private const int MaxSafeDigits = 18;

    /// <summary>
    /// <see cref="TryParse"/> for values that cannot overflow (see <see cref="MaxSafeDigits"/>): same grammar and the
    /// same Malformed / OffScale results, without a per-digit overflow test. Typical prices and quantities land here.
    /// </summary>
    private static FieldStatus TryParseShort(ReadOnlySpan<byte> value, int decimals, out long units)
    {
        units = 0;
        bool negative = value[0] == (byte)'-';
        int i = negative ? 1 : 0;
        ulong magnitude = 0;
        int digits = 0;
        for (; i < value.Length && value[i] != (byte)'.'; i++)
        {
            uint digit = (uint)(value[i] - '0');
            if (digit > 9)
            {
                return FieldStatus.Malformed;
            }

            magnitude = (magnitude * 10) + digit;
            digits++;
        }

        int fraction = 0;
        bool offScale = false;
        if (i < value.Length)
        {
            for (i++; i < value.Length; i++)
            {
                uint digit = (uint)(value[i] - '0');
                if (digit > 9)
                {
                    return FieldStatus.Malformed;
                }

                digits++;
                if (fraction < decimals)
                {
                    magnitude = (magnitude * 10) + digit;
                    fraction++;
                }
                else
                {
                    offScale |= digit != 0;
                }
            }
        }

        if (digits == 0)
        {
            return FieldStatus.Malformed;
        }

        if (offScale)
        {
            return FieldStatus.OffScale;
        }

        // At most MaxSafeDigits digits in all: below 10^18, so neither the scaling nor the sign can overflow.
        magnitude *= (ulong)PowersOf10[decimals - fraction];
        units = negative ? -(long)magnitude : (long)magnitude;
        return FieldStatus.Ok;
    }

    /// <summary>Syntax only: "[-]digits[.digits]" with at least one digit; no scale or range check.</summary>
    public static bool IsWellFormed(ReadOnlySpan<byte> value) => TryParseDigits(value, out _, out _) != DigitsResult.Malformed;

    /// <summary>
    /// Checks the syntax of <see cref="IsWellFormed"/> and, when the value has at most 18 digits, returns them as one
    /// integer (sign applied) and the count of digits after the point, so <see cref="Rescale"/> can later produce the
    /// value at any number of decimals without reading the bytes again.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static DigitsResult TryParseDigits(ReadOnlySpan<byte> value, out long mantissa, out int scale)
    {
        mantissa = 0;
        scale = 0;
        int i = !value.IsEmpty && value[0] == (byte)'-' ? 1 : 0;
        bool negative = i == 1;
        int digits = 0;
        int point = -1;
        ulong magnitude = 0;
        for (; i < value.Length; i++)
        {
            uint digit = (uint)(value[i] - '0');
            if (digit <= 9)
            {
                // Past 18 digits the product may wrap; the result is then discarded (TooLong), never used.
                magnitude = (magnitude * 10) + digit;
                digits++;
            }
            else if (value[i] == (byte)'.' && point < 0)
            {
                point = digits;
            }
            else
            {
                return DigitsResult.Malformed;
            }
        }

        if (digits == 0)
        {
            return DigitsResult.Malformed;
        }

        if (digits > MaxSafeDigits)
        {
            return DigitsResult.TooLong;
        }

        scale = point < 0 ? 0 : digits - point;
        mantissa = negative ? -(long)magnitude : (long)magnitude;
        return DigitsResult.Ok;
    }

    /// <summary>
    /// The value <paramref name="mantissa"/> * 10^-<paramref name="scale"/> (from <see cref="TryParseDigits"/>) as a
    /// count of 10^-<paramref name="decimals"/> units, with exactly <see cref="TryParse"/>'s results: OffScale when
    /// a dropped digit is not zero, OutOfRange when the scaled value does not fit a long.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static FieldStatus Rescale(long mantissa, int scale, int decimals, out long units)
    {
        units = 0;
        if ((uint)decimals > MaxDecimals)
        {
            ThrowDecimalsOutOfRange();
        }

        if (scale == decimals)
        {
            // Written at exactly the wanted precision (a quantity "100", a price "143.4200"): nothing to scale.
            units = mantissa;
            return FieldStatus.Ok;
        }

        // |mantissa| < 10^18, so the negation cannot overflow.
        ulong magnitude = (ulong)Math.Abs(mantissa);
        if (scale > decimals)
        {
            ulong divisor = (ulong)PowersOf10[scale - decimals];
            ulong whole = magnitude / divisor;
            if (magnitude - (whole * divisor) != 0)
            {
                return FieldStatus.OffScale;
            }

            magnitude = whole;
        }
        else if (scale < decimals)
        {
            // A compare with the largest value that scales within a long, not a 128-bit product: the product's low half
            // went through memory (an out parameter), a store-to-load stall on every scaled price.
            int shift = decimals - scale;
            if (magnitude > LargestScalable[shift])
            {
                return FieldStatus.OutOfRange;
            }

            magnitude *= (ulong)PowersOf10[shift];
        }

        units = mantissa < 0 ? -(long)magnitude : (long)magnitude;
        return FieldStatus.Ok;
    }

    internal enum DigitsResult : byte
    {
        Ok = 0,
        Malformed,

        /// <summary>Well formed, but more than 18 digits: not representable as one exact mantissa.</summary>
        TooLong,
    }

    /// <summary>
    /// Writes <paramref name="units"/> at <paramref name="decimals"/> in the shortest exact form: trailing fraction
    /// zeros and a bare point are dropped (1434000 at 4 decimals is "143.4", 1000000 is "100"). Returns the length.
    /// </summary>
    public static int Format(long units, int decimals, Span<byte> destination)
    {
        if ((uint)decimals > MaxDecimals)
        {
            throw new ArgumentOutOfRangeException(nameof(decimals));
        }

        // FixDigits stores past the result's end; format into room for that, then copy exactly the result.
        Span<byte> scratch = stackalloc byte[MaxChars + FixDigits.Slack];
        int length = FixDigits.WritePrice(ref MemoryMarshal.GetReference(scratch), units, decimals);
        scratch[..length].CopyTo(destination);
        return length;
    }

    internal static long Pow10(int decimals) => PowersOf10[decimals];

    private static bool Accumulate(ref ulong magnitude, uint digit)
    {
        if (magnitude > (ulong.MaxValue - digit) / 10)
        {
            return false;
        }

        magnitude = (magnitude * 10) + digit;
        return true;
    }

    /// <summary>Out of line, so the inlined <see cref="Rescale"/> carries no exception construction.</summary>
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowDecimalsOutOfRange() => throw new ArgumentOutOfRangeException("decimals");
}
