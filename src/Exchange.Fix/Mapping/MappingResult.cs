using System.Runtime.CompilerServices;
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
/// <remarks>
/// One 64-bit word (RefTag in the low half, then Outcome, SessionReason and Reason bytes), so it is built with register
/// arithmetic and returned in one register. As separate fields the JIT assembled the result on the stack, field by
/// field, and read it back whole: a failed store forward on every mapped message (the hottest instruction of the
/// NewOrderSingle reader in a profile).
/// </remarks>
public readonly record struct MappingResult
{
    private readonly ulong _bits;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private MappingResult(MappingOutcome outcome, int refTag, SessionRejectReason sessionReason, RejectReason reason)
    {
        _bits = (uint)refTag | ((ulong)outcome << 32) | ((ulong)checked((byte)sessionReason) << 40) | ((ulong)reason << 48);
    }

    public MappingOutcome Outcome => (MappingOutcome)(byte)(_bits >> 32);

    /// <summary>The tag the problem is about (RefTagID 371 of a session reject).</summary>
    public int RefTag => (int)(uint)_bits;

    public SessionRejectReason SessionReason => (SessionRejectReason)(byte)(_bits >> 40);

    public RejectReason Reason => (RejectReason)(byte)(_bits >> 48);

    public static MappingResult Ok => default;

    public bool IsOk => Outcome == MappingOutcome.Ok;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult Session(int tag, SessionRejectReason reason) => new(MappingOutcome.SessionReject, tag, reason, RejectReason.None);

    public static MappingResult Session(int tag, FieldStatus status)
    {
        FixFieldError error = FixFieldError.FromStatus(tag, status);
        return Session(error.Tag, error.Reason);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static MappingResult Business(int tag, RejectReason reason) => new(MappingOutcome.BusinessReject, tag, SessionRejectReason.Other, reason);

    /// <summary>Fixed ASCII text for Text (58) explaining the problem.</summary>
    public ReadOnlySpan<byte> Text => Outcome == MappingOutcome.BusinessReject
        ? RejectTexts.For(Reason)
        : RejectTexts.For(SessionReason);
}
