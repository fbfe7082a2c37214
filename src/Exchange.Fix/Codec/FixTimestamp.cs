using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace Exchange.Fix.Codec;

/// <summary>
/// FIX UTCTimestamp "yyyyMMdd-HH:mm:ss[.sss[sss[sss]]]" to and from nanoseconds since the Unix epoch, by hand:
/// no DateTime parsing or formatting, no allocation. Accepted years are 1970..2261 (the range of a long of
/// nanoseconds); second 60 is accepted only at 23:59:60, as FIX allows it ("only if UTC leap second").
/// </summary>
public static class FixTimestamp
{
    /// <summary>Length of the millisecond form the writer emits: "yyyyMMdd-HH:mm:ss.sss".</summary>
    public const int MillisecondsLength = 21;

    public const long NanosPerSecond = 1_000_000_000L;

    private const long NanosPerDay = 86_400L * NanosPerSecond;

    // One thread's last formatted millisecond (see WriteMilliseconds): primitive thread statics, because the JIT
    // reaches those inline through the thread's TLS block, where a struct thread static is a boxed object behind a
    // helper call on every access. t_millisKey is the millisecond + MillisKeyBias, never 0 for a valid time, so 0 (the
    // initial value) means nothing is cached. The text: bytes 0..7 in t_text0, 8..15 in t_text8, 13..20 in t_text13.
    [ThreadStatic]
    private static long t_millisKey;

    [ThreadStatic]
    private static long t_second;

    [ThreadStatic]
    private static ulong t_text0;

    [ThreadStatic]
    private static ulong t_text8;

    [ThreadStatic]
    private static ulong t_text13;

    /// <summary>Added to a millisecond count to make its cache key: |millis| is below 2^54 for any long of nanoseconds,
    /// so the key is never 0.</summary>
    private const long MillisKeyBias = 1L << 60;

    /// <summary>Bits of t_text13 that hold the three millisecond digits (text bytes 18..20).</summary>
    private const ulong MillisDigitsMask = 0xFFFF_FF00_0000_0000UL;

    public static FieldStatus TryParse(ReadOnlySpan<byte> value, out long unixNanos)
    {
        TimestampCache none = default;
        return TryParse(value, ref none, out unixNanos);
    }

    /// <summary>
    /// <see cref="TryParse(ReadOnlySpan{byte}, out long)"/> that skips the calendar arithmetic when the
    /// "yyyyMMdd" and "HH:mm:ss" bytes equal those of the last timestamp this <paramref name="cache"/> converted:
    /// inbound SendingTime and TransactTime repeat the same second message after message. Same results.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static FieldStatus TryParse(ReadOnlySpan<byte> value, ref TimestampCache cache, out long unixNanos)
    {
        if (value.Length == MillisecondsLength)
        {
            // The common case, a millisecond timestamp in the cached second, without the general checks: equal date
            // and time bytes are digits with the right colons (they were when cached); '-' and ".ddd" are checked here.
            // Safe: value is exactly 21 bytes, so the reads at 0..7, 9..16 and 17..20 are inside it.
            ref byte at = ref MemoryMarshal.GetReference(value);
            ulong cachedDate = Unsafe.ReadUnaligned<ulong>(ref at);
            ulong cachedTime = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref at, 9)) ^ ColonsToZeros;
            uint d0 = (uint)(Unsafe.Add(ref at, 18) - '0');
            uint d1 = (uint)(Unsafe.Add(ref at, 19) - '0');
            uint d2 = (uint)(Unsafe.Add(ref at, 20) - '0');
            // An empty cache (all zero, the initial state) matches nothing: 8 NUL bytes would equal its DateBytes.
            if (cachedDate == cache.DateBytes && cachedDate != 0 && cachedTime == cache.TimeBytes && Unsafe.Add(ref at, 8) == (byte)'-' &&
                Unsafe.Add(ref at, 17) == (byte)'.' && d0 <= 9 && d1 <= 9 && d2 <= 9)
            {
                unixNanos = cache.SecondNanos + (((d0 * 100) + (d1 * 10) + d2) * 1_000_000L);
                return FieldStatus.Ok;
            }
        }

        return TryParseAny(value, ref cache, out unixNanos);
    }

    /// <summary>The general form of the cached parse: any precision, any second (which it then caches).</summary>
    private static FieldStatus TryParseAny(ReadOnlySpan<byte> value, ref TimestampCache cache, out long unixNanos)
    {
        unixNanos = 0;
        int fractionDigits = value.Length - 18;
        if (value.Length != 17 && fractionDigits != 3 && fractionDigits != 6 && fractionDigits != 9)
        {
            return FieldStatus.Malformed;
        }

        if (value[8] != (byte)'-' || value[11] != (byte)':' || value[14] != (byte)':' || (value.Length > 17 && value[17] != (byte)'.'))
        {
            return FieldStatus.Malformed;
        }

        // "yyyyMMdd" and "HH:mm:ss" are 8 bytes each: check and convert all digits at once (SWAR). The colons (already
        // checked) are turned into '0' so the time reads as the number HH0mm0ss.
        ulong dateBytes = BinaryPrimitives.ReadUInt64LittleEndian(value);
        ulong timeBytes = BinaryPrimitives.ReadUInt64LittleEndian(value[9..]) ^ ColonsToZeros;
        bool sameSecond = dateBytes == cache.DateBytes && timeBytes == cache.TimeBytes;
        if (!sameSecond && (!AsciiDigits.AreEightDigits(dateBytes) || !AsciiDigits.AreEightDigits(timeBytes)))
        {
            return FieldStatus.Malformed;
        }

        long fraction = 0;
        if (value.Length > 17)
        {
            if (!Digits(value, 18, fractionDigits, out int digits))
            {
                return FieldStatus.Malformed;
            }

            fraction = digits * (fractionDigits == 3 ? 1_000_000L : fractionDigits == 6 ? 1_000L : 1L);
        }

        if (sameSecond)
        {
            unixNanos = cache.SecondNanos + fraction;
            return FieldStatus.Ok;
        }

        uint date = AsciiDigits.EightDigits(dateBytes);
        uint time = AsciiDigits.EightDigits(timeBytes);
        int year = (int)(date / 10_000);
        int month = (int)(date / 100 % 100);
        int day = (int)(date % 100);
        int hour = (int)(time / 1_000_000);
        int minute = (int)(time / 1_000 % 1_000);
        int second = (int)(time % 1_000);
        if (year < 1970 || year > 2261 || month < 1 || month > 12 || day < 1 || (day > 28 && day > DaysInMonth(year, month)) ||
            hour > 23 || minute > 59 || second > 60 || (second == 60 && (hour != 23 || minute != 59)))
        {
            return FieldStatus.OutOfRange;
        }

        long days = DaysFromCivil(year, month, day);
        long secondNanos = (days * NanosPerDay) + ((((hour * 60L) + minute) * 60L) + second) * NanosPerSecond;

        // Only valid seconds are cached.
        cache.DateBytes = dateBytes;
        cache.TimeBytes = timeBytes;
        cache.SecondNanos = secondNanos;
        unixNanos = secondNanos + fraction;
        return FieldStatus.Ok;
    }

    /// <summary>FIX UTCDateOnly / LocalMktDate "yyyyMMdd" to days since the Unix epoch.</summary>
    public static FieldStatus TryParseDate(ReadOnlySpan<byte> value, out long unixDays)
    {
        unixDays = 0;
        if (value.Length != 8 || !Digits(value, 0, 4, out int year) || !Digits(value, 4, 2, out int month) ||
            !Digits(value, 6, 2, out int day))
        {
            return FieldStatus.Malformed;
        }

        if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month))
        {
            return FieldStatus.OutOfRange;
        }

        unixDays = DaysFromCivil(year, month, day);
        return FieldStatus.Ok;
    }

    /// <summary>Writes "yyyyMMdd-HH:mm:ss.sss" (truncated to milliseconds) and returns 21.</summary>
    public static int FormatMilliseconds(long unixNanos, Span<byte> destination)
    {
        WriteMilliseconds(ref MemoryMarshal.GetReference(destination[..MillisecondsLength]), unixNanos);
        return MillisecondsLength;
    }

    /// <summary>
    /// Writes the 21 bytes of "yyyyMMdd-HH:mm:ss.sss" at a raw reference (exactly those: three 8-byte stores, the
    /// last overlapping); the caller guarantees the room.
    /// </summary>
    /// <remarks>
    /// Outbound messages carry SendingTime and TransactTime from the same millisecond, or at least the same second,
    /// over and over, so the text is cached per thread (thread statics: no allocation, no sharing, exact for any
    /// sequence of times): the same millisecond is three register stores, a new millisecond patches three digits,
    /// a new second formats the date and time again.
    /// </remarks>
    internal static void WriteMilliseconds(ref byte destination, long unixNanos)
    {
        long millis = Math.DivRem(unixNanos, 1_000_000L, out long nanosOfMilli);
        if (nanosOfMilli < 0)
        {
            millis--;
        }

        if (t_millisKey != millis + MillisKeyBias)
        {
            RefreshMillisecond(millis);
        }

        Unsafe.WriteUnaligned(ref destination, t_text0);
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref destination, 8), t_text8);
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref destination, 13), t_text13);
    }

    /// <summary>Caches <paramref name="millis"/>'s text: its three digits patched in, the date and time formatted only
    /// when the second changed.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void RefreshMillisecond(long millis)
    {
        long second = Math.DivRem(millis, 1_000L, out long millisOfSecond);
        if (millisOfSecond < 0)
        {
            second--;
            millisOfSecond += 1_000;
        }

        if (t_millisKey == 0 || second != t_second)
        {
            Span<byte> text = stackalloc byte[MillisecondsLength];
            FormatSecond(second, text);
            text[17] = (byte)'.';
            t_text0 = MemoryMarshal.Read<ulong>(text);
            t_text8 = MemoryMarshal.Read<ulong>(text[8..]);
            t_text13 = MemoryMarshal.Read<ulong>(text[13..]);
            t_second = second;
        }

        // The digits of millisOfSecond (< 1000) are the last three of its eight-digit form: bytes 5..7, exactly where
        // t_text13 keeps them (text bytes 18..20).
        t_text13 = (t_text13 & ~MillisDigitsMask) | (FixDigits.EightDigitsAscii((uint)millisOfSecond) & MillisDigitsMask);
        t_millisKey = millis + MillisKeyBias;
    }

    /// <summary>
    /// Whether two times have the same millisecond text: both at or after the epoch and in the same millisecond.
    /// (Earlier times answer false, so callers format them instead: never a wrong answer, only a slower one.)
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool SameMillisecond(long unixNanosA, long unixNanosB) =>
        (unixNanosA | unixNanosB) >= 0 && (ulong)unixNanosA / 1_000_000UL == (ulong)unixNanosB / 1_000_000UL;

    /// <summary>Writes "yyyyMMdd-HH:mm:ss" for a count of seconds since the epoch.</summary>
    private static void FormatSecond(long unixSeconds, Span<byte> d)
    {
        long days = Math.DivRem(unixSeconds, 86_400L, out long secondOfDay);
        if (secondOfDay < 0)
        {
            days--;
            secondOfDay += 86_400L;
        }

        CivilFromDays(days, out int year, out int month, out int day);
        int seconds = (int)secondOfDay;
        FixInt.WriteDigits((ulong)year, d[..4]);
        FixInt.WriteDigits((ulong)month, d.Slice(4, 2));
        FixInt.WriteDigits((ulong)day, d.Slice(6, 2));
        d[8] = (byte)'-';
        FixInt.WriteDigits((ulong)(seconds / 3600), d.Slice(9, 2));
        d[11] = (byte)':';
        FixInt.WriteDigits((ulong)(seconds / 60 % 60), d.Slice(12, 2));
        d[14] = (byte)':';
        FixInt.WriteDigits((ulong)(seconds % 60), d.Slice(15, 2));
    }

    public static int DaysInMonth(int year, int month) => month switch
    {
        2 => (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28,
        4 or 6 or 9 or 11 => 30,
        _ => 31,
    };

    /// <summary>Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).</summary>
    internal static long DaysFromCivil(int year, int month, int day)
    {
        long y = month <= 2 ? year - 1 : year;
        if (y >= 0)
        {
            // Every UTCTimestamp (1970..2261) lands here: unsigned divisions by constants are plain multiplies,
            // without the sign fix-ups the signed form needs. Same formula as below.
            uint uy = (uint)y;
            uint uEra = uy / 400;
            uint uYearOfEra = uy - (uEra * 400);
            uint uDayOfYear = ((153 * (uint)(month + (month > 2 ? -3 : 9))) + 2) / 5 + (uint)day - 1;
            uint uDayOfEra = (uYearOfEra * 365) + (uYearOfEra / 4) - (uYearOfEra / 100) + uDayOfYear;
            return ((long)uEra * 146097) + uDayOfEra - 719468;
        }

        long era = (y >= 0 ? y : y - 399) / 400;
        long yearOfEra = y - (era * 400);
        long dayOfYear = ((153 * (month + (month > 2 ? -3 : 9))) + 2) / 5 + day - 1;
        long dayOfEra = (yearOfEra * 365) + (yearOfEra / 4) - (yearOfEra / 100) + dayOfYear;
        return (era * 146097) + dayOfEra - 719468;
    }

    internal static void CivilFromDays(long days, out int year, out int month, out int day)
    {
        long z = days + 719468;
        long era = (z >= 0 ? z : z - 146096) / 146097;
        long dayOfEra = z - (era * 146097);
        long yearOfEra = (dayOfEra - (dayOfEra / 1460) + (dayOfEra / 36524) - (dayOfEra / 146096)) / 365;
        long dayOfYear = dayOfEra - ((365 * yearOfEra) + (yearOfEra / 4) - (yearOfEra / 100));
        long mp = ((5 * dayOfYear) + 2) / 153;
        day = (int)(dayOfYear - (((153 * mp) + 2) / 5) + 1);
        month = (int)(mp < 10 ? mp + 3 : mp - 9);
        year = (int)(yearOfEra + (era * 400) + (month <= 2 ? 1 : 0));
    }

    /// <summary>XOR mask turning the ':' at offsets 2 and 5 of "HH:mm:ss" into '0' (':' ^ '0' == 0x0A).</summary>
    private const ulong ColonsToZeros = (0x0AUL << 16) | (0x0AUL << 40);

    private static bool Digits(ReadOnlySpan<byte> value, int start, int count, out int result)
    {
        result = 0;
        for (int i = start; i < start + count; i++)
        {
            uint digit = (uint)(value[i] - '0');
            if (digit > 9)
            {
                return false;
            }

            result = (result * 10) + (int)digit;
        }

        return true;
    }
}
