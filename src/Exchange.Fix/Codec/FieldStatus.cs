namespace Exchange.Fix.Codec;

/// <summary>Result of reading one typed field. Ok is 0 so callers can test <c>!= FieldStatus.Ok</c>.</summary>
public enum FieldStatus : byte
{
    Ok = 0,

    /// <summary>The tag is not in the message.</summary>
    Missing = 1,

    /// <summary>The value does not have the type's syntax (SessionRejectReason 6).</summary>
    Malformed = 2,

    /// <summary>Well formed but outside the type's range, e.g. integer overflow or month 13 (SessionRejectReason 5).</summary>
    OutOfRange = 3,

    /// <summary>A price with non-zero digits beyond the requested decimals; never rounded (SessionRejectReason 5).</summary>
    OffScale = 4,
}
