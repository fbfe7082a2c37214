namespace Exchange.Fix.Codec;

/// <summary>
/// The first problem found in a message: the tag to report as RefTagID (371, 0 when no tag applies) and the
/// SessionRejectReason (373). <see cref="None"/> means no problem.
/// </summary>
public readonly record struct FixFieldError(int Tag, SessionRejectReason Reason, bool IsError)
{
    public static FixFieldError None => default;

    public static FixFieldError Of(int tag, SessionRejectReason reason) => new(tag, reason, true);

    /// <summary>Maps a failed typed read of <paramref name="tag"/> to the reject reason FIX prescribes.</summary>
    public static FixFieldError FromStatus(int tag, FieldStatus status) => status switch
    {
        FieldStatus.Ok => None,
        FieldStatus.Missing => Of(tag, SessionRejectReason.RequiredTagMissing),
        FieldStatus.Malformed => Of(tag, SessionRejectReason.IncorrectDataFormat),
        _ => Of(tag, SessionRejectReason.ValueIsIncorrect),
    };
}
