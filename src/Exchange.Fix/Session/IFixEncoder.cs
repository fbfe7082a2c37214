using System.Buffers;

namespace Exchange.Fix.Session;

/// <summary>
/// The codec's side of the session boundary: frames one message around a body the caller already encoded as
/// tag=value&lt;SOH&gt; fields (everything after the standard header, without CheckSum). The session decides every
/// field and value; the encoder owns BeginString, BodyLength, timestamp formatting and CheckSum.
/// Must not allocate per call.
/// </summary>
public interface IFixEncoder
{
    void Encode(in OutboundHeader header, ReadOnlySpan<byte> body, IBufferWriter<byte> output);
}
