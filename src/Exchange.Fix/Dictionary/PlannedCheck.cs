using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Dictionary;

/// <summary>
/// The lean form of a plan's value checks, picked once per <see cref="ValueCheck"/> when the plan is recorded, for the
/// field types an order carries on every message: CHAR enums, plain INTs, decimals and UTCTimestamps.
/// </summary>
internal enum PlannedCheckKind : byte
{
    /// <summary>Anything else (BOOLEAN, dates, enums of other types...): always the general check.</summary>
    General = 0,
    CharEnum,
    Int,
    Decimal,
    Timestamp,
}

/// <summary>
/// Pass/fail of one planned check on the common values, storing the typed value exactly as the general check does.
/// A false result decides nothing: the caller then runs the general check, which gives the verdict and the error,
/// so this can be stricter than the general check (a signed or 19-digit INT, say) but never more lenient.
/// </summary>
internal static class PlannedCheck
{
    /// <summary>The kind a field of <paramref name="type"/> gets (see <see cref="PlannedCheckKind"/>).</summary>
    public static PlannedCheckKind KindOf(FixFieldType type, bool hasEnum) => (type, hasEnum) switch
    {
        (FixFieldType.Char, true) => PlannedCheckKind.CharEnum,
        (FixFieldType.Int, false) => PlannedCheckKind.Int,
        (FixFieldType.Decimal, false) => PlannedCheckKind.Decimal,
        (FixFieldType.UtcTimestamp, false) => PlannedCheckKind.Timestamp,
        _ => PlannedCheckKind.General,
    };

    /// <param name="raw">The message's first byte; the field's value lies at its Offset, Length.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool Passes(in ValueCheck check, ref FixMessage.Field field, ref byte raw, ref TimestampCache timestamps) =>
        check.Kind switch
        {
            PlannedCheckKind.CharEnum => PassesCharEnum(check, ref field, ref raw),
            PlannedCheckKind.Int => PassesInt(ref field, ref raw),
            PlannedCheckKind.Decimal => PassesDecimal(ref field, ref raw),
            PlannedCheckKind.Timestamp => PassesTimestamp(ref field, ref raw, ref timestamps),
            _ => false,
        };

    /// <summary>CHAR values are one byte, and an enum's bit is set only for a printable value.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool PassesCharEnum(in ValueCheck check, ref FixMessage.Field field, ref byte raw)
    {
        byte value = Unsafe.Add(ref raw, field.Offset);
        if (field.Length != 1 || !FixDictionary.IsSingleByteEnum(value, check.EnumLow, check.EnumHigh))
        {
            return false;
        }

        field.Value = value;
        field.Kind = FixMessage.FieldValueKind.Char;
        return true;
    }

    /// <summary>
    /// 1..18 digits without a sign (sequence numbers, lengths, counts): below 10^18, no overflow; the rest (signs,
    /// longer numbers, errors) is the general check's. The same loop as FixInt.TryParse's fast path, kept here because
    /// calling that (span and all) measured 2-3 ns slower per message.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool PassesInt(ref FixMessage.Field field, ref byte raw)
    {
        ref byte value = ref Unsafe.Add(ref raw, field.Offset);
        int length = field.Length;
        if ((uint)(length - 1) >= 18)
        {
            return false;
        }

        ulong number = 0;
        for (int i = 0; i < length; i++)
        {
            uint digit = (uint)(Unsafe.Add(ref value, i) - '0');
            if (digit > 9)
            {
                return false;
            }

            number = (number * 10) + digit;
        }

        field.Value = (long)number;
        field.Kind = FixMessage.FieldValueKind.Integer;
        return true;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool PassesDecimal(ref FixMessage.Field field, ref byte raw)
    {
        ReadOnlySpan<byte> value = MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref raw, field.Offset), field.Length);
        if (FixPrice.TryParseDigits(value, out field.Value, out int scale) != FixPrice.DigitsResult.Ok)
        {
            return false;
        }

        field.Scale = (byte)scale;
        field.Kind = FixMessage.FieldValueKind.Decimal;
        return true;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool PassesTimestamp(ref FixMessage.Field field, ref byte raw, ref TimestampCache timestamps)
    {
        ReadOnlySpan<byte> value = MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref raw, field.Offset), field.Length);
        if (FixTimestamp.TryParse(value, ref timestamps, out field.Value) != FieldStatus.Ok)
        {
            return false;
        }

        field.Kind = FixMessage.FieldValueKind.Timestamp;
        return true;
    }
}
