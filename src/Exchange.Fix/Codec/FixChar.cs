namespace Exchange.Fix.Codec;

/// <summary>FIX CHAR values: exactly one printable ASCII byte.</summary>
public static class FixChar
{
    public static FieldStatus TryParse(ReadOnlySpan<byte> value, out byte result)
    {
        result = 0;
        if (value.Length != 1 || value[0] <= (byte)' ' || value[0] >= 0x7F)
        {
            return FieldStatus.Malformed;
        }

        result = value[0];
        return FieldStatus.Ok;
    }
}
