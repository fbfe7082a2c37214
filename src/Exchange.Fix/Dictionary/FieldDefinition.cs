namespace Exchange.Fix.Dictionary;

/// <summary>One dictionary field: its syntax and, when the dictionary lists them, its allowed values.</summary>
/// <remarks>Single-byte enum values are kept as a 128-bit set so the common CHAR check is two bit tests.</remarks>
internal sealed class FieldDefinition
{
    public FieldDefinition(int tag, string name, FixFieldType type, IReadOnlyList<string> enumValues)
    {
        Tag = tag;
        Name = name;
        Type = type;
        var longValues = new List<byte[]>();
        foreach (string value in enumValues)
        {
            if (value.Length == 1 && value[0] < 128)
            {
                if (value[0] < 64)
                {
                    _singleLow |= 1UL << value[0];
                }
                else
                {
                    _singleHigh |= 1UL << (value[0] - 64);
                }
            }
            else
            {
                longValues.Add(System.Text.Encoding.ASCII.GetBytes(value));
            }
        }

        _longValues = [.. longValues];
        HasEnum = enumValues.Count > 0;
    }

    private readonly ulong _singleLow;
    private readonly ulong _singleHigh;
    private readonly byte[][] _longValues;

    public int Tag { get; }

    public string Name { get; }

    public FixFieldType Type { get; }

    public bool HasEnum { get; }

    /// <summary>Single-byte enum values below 64, as bits (for the validator's per-tag table).</summary>
    public ulong SingleByteLow => _singleLow;

    /// <summary>Single-byte enum values 64..127, as bits at value - 64.</summary>
    public ulong SingleByteHigh => _singleHigh;

    /// <summary>True when <paramref name="value"/> is one of the listed enum values (always true without a list).</summary>
    public bool IsAllowedValue(ReadOnlySpan<byte> value)
    {
        if (!HasEnum)
        {
            return true;
        }

        if (Type != FixFieldType.MultipleValue)
        {
            return IsEnumToken(value);
        }

        foreach (Range token in value.Split((byte)' '))
        {
            if (!IsEnumToken(value[token]))
            {
                return false;
            }
        }

        return true;
    }

    private bool IsEnumToken(ReadOnlySpan<byte> value)
    {
        if (value.Length == 1)
        {
            byte b = value[0];
            return b < 64 ? (_singleLow & (1UL << b)) != 0 : b < 128 && (_singleHigh & (1UL << (b - 64))) != 0;
        }

        foreach (byte[] candidate in _longValues)
        {
            if (value.SequenceEqual(candidate))
            {
                return true;
            }
        }

        return false;
    }
}
