using System.Buffers;
using Exchange.Fix.Session;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// Stand-in for the codec's writer: frames header + body + trailer as real tag=value&lt;SOH&gt; FIX, but writes
/// SendingTime/OrigSendingTime as raw Unix nanoseconds so assertions can compare them exactly. Allocation-free.
/// </summary>
internal sealed class TestEncoder : IFixEncoder
{
    private readonly byte[] _scratch = new byte[64 * 1024];

    public void Encode(in OutboundHeader header, ReadOnlySpan<byte> body, IBufferWriter<byte> output)
    {
        // Everything from 35 to the end of the body, so BodyLength can be computed.
        int n = 0;
        Span<byte> s = _scratch;
        n += Field(s[n..], 35, header.MsgType);
        n += Field(s[n..], 49, header.SenderCompID);
        n += Field(s[n..], 56, header.TargetCompID);
        n += Field(s[n..], 34, header.MsgSeqNum);
        n += Field(s[n..], 52, header.SendingTimeNanos);
        if (header.PossDupFlag)
        {
            n += Field(s[n..], 43, "Y"u8);
            n += Field(s[n..], 122, header.OrigSendingTimeNanos);
        }

        body.CopyTo(s[n..]);
        n += body.Length;

        Span<byte> head = stackalloc byte[32];
        int h = Field(head, 8, "FIX.4.4"u8);
        h += Field(head[h..], 9, n);

        int sum = 0;
        foreach (byte b in head[..h])
        {
            sum += b;
        }

        foreach (byte b in s[..n])
        {
            sum += b;
        }

        Span<byte> outSpan = output.GetSpan(h + n + 7);
        head[..h].CopyTo(outSpan);
        s[..n].CopyTo(outSpan[h..]);
        int t = h + n;
        "10="u8.CopyTo(outSpan[t..]);
        int checksum = sum % 256;
        outSpan[t + 3] = (byte)('0' + (checksum / 100));
        outSpan[t + 4] = (byte)('0' + (checksum / 10 % 10));
        outSpan[t + 5] = (byte)('0' + (checksum % 10));
        outSpan[t + 6] = 0x01;
        output.Advance(t + 7);
    }

    private static int Field(Span<byte> destination, int tag, ReadOnlySpan<byte> value)
    {
        tag.TryFormat(destination, out int n);
        destination[n++] = (byte)'=';
        value.CopyTo(destination[n..]);
        n += value.Length;
        destination[n++] = 0x01;
        return n;
    }

    private static int Field(Span<byte> destination, int tag, long value)
    {
        tag.TryFormat(destination, out int n);
        destination[n++] = (byte)'=';
        value.TryFormat(destination[n..], out int w);
        n += w;
        destination[n++] = 0x01;
        return n;
    }
}
