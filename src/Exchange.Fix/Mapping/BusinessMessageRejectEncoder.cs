using System.Buffers;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>BusinessRejectReason (380) values.</summary>
public enum BusinessRejectReason
{
    Other = 0,
    UnknownId = 1,
    UnknownSecurity = 2,
    UnsupportedMessageType = 3,
    ApplicationNotAvailable = 4,
    ConditionallyRequiredFieldMissing = 5,
    NotAuthorized = 6,
    DeliverToFirmNotAvailable = 7,
}

/// <summary>Encodes a BusinessMessageReject (35=j), e.g. for a well-formed application message the venue does not support.</summary>
public static class BusinessMessageRejectEncoder
{
    /// <summary>RefSeqNum 45, RefMsgType 372, BusinessRejectReason 380, Text 58 (omitted when empty).</summary>
    public static int Encode(
        Span<byte> destination, in FixHeader header, int refSeqNum, ReadOnlySpan<byte> refMsgType, BusinessRejectReason reason, ReadOnlySpan<byte> text)
    {
        var w = new FixMessageWriter(destination);
        w.Begin("j"u8, header);
        w.AddInt(FixTags.RefSeqNum, refSeqNum);
        w.AddSpan(FixTags.RefMsgType, refMsgType);
        w.AddInt(FixTags.BusinessRejectReason, (int)reason);
        if (!text.IsEmpty)
        {
            w.AddSpan(FixTags.Text, text);
        }

        return w.Finish();
    }

    /// <summary>
    /// The body of a BusinessMessageReject for an application message the venue did not act on: RefSeqNum 45,
    /// RefMsgType 372, BusinessRejectRefID 379 (the message's own id, such as its ClOrdID; omitted when empty),
    /// BusinessRejectReason 380, Text 58. <paramref name="refId"/> and <paramref name="refMsgType"/> are cut to fit.
    /// </summary>
    public static int EncodeBody(
        Span<byte> destination, int refSeqNum, ReadOnlySpan<byte> refMsgType, ReadOnlySpan<byte> refId, BusinessRejectReason reason, ReadOnlySpan<byte> text)
    {
        var w = new FixMessageWriter(destination);
        w.AddInt(FixTags.RefSeqNum, refSeqNum);
        w.AddSpan(FixTags.RefMsgType, refMsgType[..Math.Min(refMsgType.Length, MaxEchoLength)]);
        if (!refId.IsEmpty)
        {
            w.AddSpan(FixTags.BusinessRejectRefID, refId[..Math.Min(refId.Length, MaxEchoLength)]);
        }

        w.AddInt(FixTags.BusinessRejectReason, (int)reason);
        w.AddSpan(FixTags.Text, text);
        return w.Length;
    }

    /// <summary>Longest echoed value: a message may carry values far longer than a reply's buffer.</summary>
    private const int MaxEchoLength = 64;

    public static int Encode(
        IBufferWriter<byte> output, in FixHeader header, int refSeqNum, ReadOnlySpan<byte> refMsgType, BusinessRejectReason reason, ReadOnlySpan<byte> text)
    {
        ArgumentNullException.ThrowIfNull(output);
        int length = Encode(output.GetSpan(FixMessageWriter.TypicalMaxLength), header, refSeqNum, refMsgType, reason, text);
        output.Advance(length);
        return length;
    }
}
