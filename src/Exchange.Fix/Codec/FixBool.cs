namespace Exchange.Fix.Codec;

/// <summary>FIX BOOLEAN values: exactly "Y" or "N".</summary>
public static class FixBool
{
    public static FieldStatus TryParse(ReadOnlySpan<byte> value, out bool result)
    {
        result = false;
        if (value.Length != 1)
        {
            return FieldStatus.Malformed;
        }

        switch (value[0])
        {
            case (byte)'Y':
                result = true;
                return FieldStatus.Ok;
            case (byte)'N':
                return FieldStatus.Ok;
            default:
                return FieldStatus.Malformed;
        }
    }
}
