using System.Buffers;
using System.Runtime.InteropServices;
using System.Runtime.CompilerServices;

namespace Exchange.Fix.Codec;

/// <summary>
/// Writes one FIX 4.4 message straight into a span: <see cref="Begin"/> writes 8, a BodyLength placeholder, 35, 49,
/// 56, 34, 43/122 when resending, 52; the Add methods append body fields; <see cref="Finish"/> fills BodyLength and
/// appends the three-digit CheckSum. No allocation, no strings, no DateTime formatting.
/// </summary>
/// <remarks>
/// <para>Usage:</para>
/// <code>
/// Span&lt;byte&gt; span = pipeWriter.GetSpan(FixMessageWriter.TypicalMaxLength);
/// var w = new FixMessageWriter(span);
/// w.Begin("0"u8, new FixHeader(sender, target, seqNum, nowNanos));
/// w.AddSpan(FixTags.TestReqID, id);
/// pipeWriter.Advance(w.Finish());
/// </code>
/// <para>
/// BodyLength is reserved as three digits (bodies of 100..999 bytes are the common case); a shorter or longer body
/// moves the body once by the difference. The destination must hold the whole message plus slack: each Add checks
/// once for its worst case ("tag=" stored as 8 bytes, a price up to 22, SOH, 8 bytes of store slack), so give it
/// the message length + 39 bytes (<see cref="TypicalMaxLength"/> does). An undersized span is a caller bug and throws.
/// Field values are written as given; the caller must not pass SOH inside a value. Tags must be 0..999,999. The fields themselves are written by
/// the unchecked FixFields primitives, which encoders of a bounded shape also use directly.
/// </para>
/// </remarks>
public ref struct FixMessageWriter
{
    /// <summary>A span size that holds any message the venue sends (CompIDs and texts are short).</summary>
    public const int TypicalMaxLength = 1024;

    /// <summary>Room claimed per Int, Char, Price or Timestamp field: the 8-byte store of "tag=", the longest value (a
    /// price, 22), SOH, and the stores' slack past the field.</summary>
    private const int MaxScalarField = 8 + FixPrice.MaxChars + 1 + FixDigits.Slack;

    private readonly Span<byte> _destination;
    private int _pos;

    public FixMessageWriter(Span<byte> destination)
    {
        _destination = destination;
        _pos = 0;
    }

    /// <summary>Bytes written so far.</summary>
    public readonly int Length => _pos;

    /// <summary>Starts a message: BeginString, BodyLength placeholder, MsgType and the session's header fields.</summary>
    public void Begin(ReadOnlySpan<byte> msgType, in FixHeader header)
    {
        _ = ref Claim(FixFields.MaxHeaderLength(msgType, header) + FixDigits.Slack, out _);
        _pos = FixFields.Header(ref MemoryMarshal.GetReference(_destination), msgType, header);
    }

    public void AddInt(int tag, long value) => _pos = FixFields.Int(ref Claim(MaxScalarField, out int pos), pos, FixFields.PrefixOf(tag), value);

    public void AddChar(int tag, byte value) => _pos = FixFields.Char(ref Claim(MaxScalarField, out int pos), pos, FixFields.PrefixOf(tag), value);

    public void AddBool(int tag, bool value) => AddChar(tag, value ? (byte)'Y' : (byte)'N');

    public void AddSpan(int tag, scoped ReadOnlySpan<byte> value) =>
        _pos = FixFields.Bytes(ref Claim(8 + value.Length + 1, out int pos), pos, FixFields.PrefixOf(tag), value);

    /// <summary>Writes a fixed-point value exactly, in its shortest form (see <see cref="FixPrice.Format"/>).</summary>
    public void AddPrice(int tag, long units, int decimals) =>
        _pos = FixFields.Price(ref Claim(MaxScalarField, out int pos), pos, FixFields.PrefixOf(tag), units, decimals);

    /// <summary>Writes a UTCTimestamp with milliseconds.</summary>
    public void AddTimestamp(int tag, long unixNanos) =>
        _pos = FixFields.Timestamp(ref Claim(MaxScalarField, out int pos), pos, FixFields.PrefixOf(tag), unixNanos);

    /// <summary>Appends already-encoded "tag=value\x01" fields, e.g. a stored body being resent.</summary>
    public void AddRaw(scoped ReadOnlySpan<byte> fields)
    {
        fields.CopyTo(_destination[_pos..]);
        _pos += fields.Length;
    }

    /// <summary>Fills BodyLength, appends CheckSum, and returns the message's total length (from span start).</summary>
    public int Finish() => _pos = FixFields.Finish(_destination, _pos);

    /// <summary>Finishes the message and commits it to <paramref name="output"/>, whose span this writer was given.</summary>
    public int FinishTo(IBufferWriter<byte> output)
    {
        int length = Finish();
        output.Advance(length);
        return length;
    }

    /// <summary>
    /// Checks once per field that <paramref name="bytes"/> more fit, so the field's own stores need no bounds checks,
    /// and hands out the destination's first byte and the current position. An undersized destination is a caller
    /// bug: it throws.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly ref byte Claim(int bytes, out int pos)
    {
        pos = _pos;
        if ((uint)(pos + bytes) > (uint)_destination.Length)
        {
            FixFields.ThrowTooSmall();
        }

        return ref MemoryMarshal.GetReference(_destination);
    }
}
