using System.Buffers;
using Exchange.Fix.Codec;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>The session layer's <see cref="IFixEncoder"/> over the codec's <see cref="FixFields.Frame"/>. Stateless, no allocation.</summary>
internal sealed class FixSessionEncoder : IFixEncoder
{
    public static readonly FixSessionEncoder Instance = new();

    public void Encode(in OutboundHeader header, ReadOnlySpan<byte> body, IBufferWriter<byte> output)
    {
        var fixHeader = new FixHeader(header.SenderCompID, header.TargetCompID, header.MsgSeqNum, header.SendingTimeNanos)
        {
            PossDup = header.PossDupFlag,
            OrigSendingTime = header.OrigSendingTimeNanos,
        };
        Span<byte> destination = output.GetSpan(FixFields.MaxFrameLength(header.MsgType, fixHeader, body.Length));
        output.Advance(FixFields.Frame(destination, header.MsgType, fixHeader, body));
    }
}
