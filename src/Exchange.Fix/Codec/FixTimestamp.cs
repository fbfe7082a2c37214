namespace Exchange.Fix.Codec;

/// <summary>
/// FIX UTCTimestamp "yyyyMMdd-HH:mm:ss[.sss[sss[sss]]]" to and from nanoseconds since the Unix epoch, by hand:
/// no DateTime parsing or formatting, no allocation. Accepted years are 1970..2261 (the range of a long of
/// nanoseconds); second 60 (a leap second) is accepted as FIX allows it.
/// </summary>
public static class FixTimestamp
{
    /// <summary>Length of the millisecond form the writer emits: "yyyyMMdd-HH:mm:ss.sss".</summary>
    public const int MillisecondsLength = 21;

    public const long NanosPerSecond = 1_000_000_000L;

    private const long NanosPerDay = 86_400L * NanosPerSecond;

    public static FieldStatus TryParse(ReadOnlySpan<byte> value, out long unixNanos)
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

        if (!Digits(value, 0, 4, out int year) || !Digits(value, 4, 2, out int month) || !Digits(value, 6, 2, out int day) ||
            !Digits(value, 9, 2, out int hour) || !Digits(value, 12, 2, out int minute) || !Digits(value, 15, 2, out int second))
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

        if (year < 1970 || year > 2261 || month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) ||
            hour > 23 || minute > 59 || second > 60)
        {
            return FieldStatus.OutOfRange;
        }

        long days = DaysFromCivil(year, month, day);
        unixNanos = (days * NanosPerDay) + ((((hour * 60L) + minute) * 60L) + second) * NanosPerSecond + fraction;
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
        long days = Math.DivRem(unixNanos, NanosPerDay, out long nanosOfDay);
        if (nanosOfDay < 0)
        {
            days--;
            nanosOfDay += NanosPerDay;
        }

        CivilFromDays(days, out int year, out int month, out int day);
        long secondsOfDay = nanosOfDay / NanosPerSecond;
        int millis = (int)((nanosOfDay % NanosPerSecond) / 1_000_000L);

        Span<byte> d = destination[..MillisecondsLength];
        Write(d, 0, year, 4);
        Write(d, 4, month, 2);
        Write(d, 6, day, 2);
        d[8] = (byte)'-';
        Write(d, 9, (int)(secondsOfDay / 3600), 2);
        d[11] = (byte)':';
        Write(d, 12, (int)(secondsOfDay / 60 % 60), 2);
        d[14] = (byte)':';
        Write(d, 15, (int)(secondsOfDay % 60), 2);
        d[17] = (byte)'.';
        Write(d, 18, millis, 3);
        return MillisecondsLength;
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

    private static void Write(Span<byte> destination, int start, int value, int width)
    {
        for (int i = start + width - 1; i >= start; i--)
        {
            destination[i] = (byte)('0' + (value % 10));
            value /= 10;
        }
    }
}
