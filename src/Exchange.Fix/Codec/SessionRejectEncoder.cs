using System.Buffers;

namespace Exchange.Fix.Codec;

/// <summary>Encodes a session-level Reject (35=3) from a <see cref="FixFieldError"/> or mapping result.</summary>
public static class SessionRejectEncoder
{
    /// <summary>RefSeqNum 45, RefTagID 371 (omitted when 0), RefMsgType 372 (omitted when empty), SessionRejectReason 373, Text 58 (omitted when empty).</summary>
    public static int Encode(
        Span<byte> destination, in FixHeader header, int refSeqNum, int refTagId, ReadOnlySpan<byte> refMsgType, SessionRejectReason reason, ReadOnlySpan<byte> text)
    {
        var w = new FixMessageWriter(destination);
        w.Begin("3"u8, header);
        w.AddInt(FixTags.RefSeqNum, refSeqNum);
        if (refTagId > 0)
        {
            w.AddInt(FixTags.RefTagID, refTagId);
        }

        if (!refMsgType.IsEmpty)
        {
            w.AddSpan(FixTags.RefMsgType, refMsgType);
        }

        w.AddInt(FixTags.SessionRejectReason, (int)reason);
        if (!text.IsEmpty)
        {
            w.AddSpan(FixTags.Text, text);
        }

        return w.Finish();
    }

    public static int Encode(
        IBufferWriter<byte> output, in FixHeader header, int refSeqNum, int refTagId, ReadOnlySpan<byte> refMsgType, SessionRejectReason reason, ReadOnlySpan<byte> text)
    {
        ArgumentNullException.ThrowIfNull(output);
        int length = Encode(output.GetSpan(FixMessageWriter.TypicalMaxLength), header, refSeqNum, refTagId, refMsgType, reason, text);
        output.Advance(length);
        return length;
    }
}
