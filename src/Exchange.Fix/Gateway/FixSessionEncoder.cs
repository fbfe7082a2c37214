using System.Buffers;
using Exchange.Fix.Codec;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>The session layer's <see cref="IFixEncoder"/> over the codec's <see cref="FixMessageWriter"/>. Stateless, no allocation.</summary>
internal sealed class FixSessionEncoder : IFixEncoder
{
    public static readonly FixSessionEncoder Instance = new();

    public void Encode(in OutboundHeader header, ReadOnlySpan<byte> body, IBufferWriter<byte> output)
    {
        var w = new FixMessageWriter(output.GetSpan(FixMessageWriter.TypicalMaxLength + body.Length));
        w.Begin(header.MsgType, new FixHeader(header.SenderCompID, header.TargetCompID, header.MsgSeqNum, header.SendingTimeNanos)
        {
            PossDup = header.PossDupFlag,
            OrigSendingTime = header.OrigSendingTimeNanos,
        });
        w.AddRaw(body);
        w.FinishTo(output);
    }
}
