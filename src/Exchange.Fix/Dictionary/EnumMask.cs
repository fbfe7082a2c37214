namespace Exchange.Fix.Dictionary;

/// <summary>A set of single-byte values in the dictionary's two-mask form (<see cref="FixDictionary.IsSingleByteEnum"/>).</summary>
internal readonly record struct EnumMask(ulong Low, ulong High)
{
    public bool Contains(byte value) => FixDictionary.IsSingleByteEnum(value, Low, High);

    /// <summary>The values of <paramref name="check"/>'s enum that <paramref name="accepts"/> too.</summary>
    public static EnumMask Of(in ValueCheck check, Func<byte, bool> accepts)
    {
        ulong low = 0;
        ulong high = 0;
        for (int b = 0; b < 128; b++)
        {
            if (FixDictionary.IsSingleByteEnum((byte)b, check.EnumLow, check.EnumHigh) && accepts((byte)b))
            {
                if (b < 64)
                {
                    low |= 1UL << b;
                }
                else
                {
                    high |= 1UL << (b - 64);
                }
            }
        }

        return new EnumMask(low, high);
    }
}
