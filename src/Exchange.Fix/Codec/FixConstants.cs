namespace Exchange.Fix.Codec;

/// <summary>Wire constants shared by the framer, parser and writer.</summary>
internal static class FixConstants
{
    public const byte Soh = 0x01;

    /// <summary>Length of "10=nnn\x01".</summary>
    public const int TrailerLength = 7;
}
