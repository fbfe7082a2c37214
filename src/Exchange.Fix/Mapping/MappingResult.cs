using Exchange.Core.Events;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

public enum MappingOutcome : byte
{
    /// <summary>The command was filled in; send it to the engine.</summary>
    Ok = 0,

    /// <summary>Structurally wrong (missing, malformed, too long): send a session Reject (35=3) with RefTagID and reason.</summary>
    SessionReject = 1,

    /// <summary>
    /// Well formed but not acceptable (unknown symbol, unsupported side/type/time in force, off-scale price): answer
    /// like an engine reject — an ExecutionReport 35=8 ExecType=8 for D, an OrderCancelReject 35=9 for F/G — using
    /// <see cref="MappingResult.Reason"/> (see <see cref="RejectEvents"/>).
    /// </summary>
    BusinessReject = 2,
}

/// <summary>Result of mapping one application message to an engine command; codes only, no allocation.</summary>
public readonly record struct MappingResult(MappingOutcome Outcome, int RefTag, SessionRejectReason SessionReason, RejectReason Reason)
{
    public static MappingResult Ok => default;

    public bool IsOk => Outcome == MappingOutcome.Ok;

    public static MappingResult Session(int tag, SessionRejectReason reason) => new(MappingOutcome.SessionReject, tag, reason, RejectReason.None);

    public static MappingResult Session(int tag, FieldStatus status)
    {
        FixFieldError error = FixFieldError.FromStatus(tag, status);
        return Session(error.Tag, error.Reason);
    }

    public static MappingResult Business(int tag, RejectReason reason) => new(MappingOutcome.BusinessReject, tag, SessionRejectReason.Other, reason);

    /// <summary>Fixed ASCII text for Text (58) explaining the problem.</summary>
    public ReadOnlySpan<byte> Text => Outcome == MappingOutcome.BusinessReject
        ? RejectTexts.For(Reason)
        : RejectTexts.For(SessionReason);
}
