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
/// once for its worst case ("tag=" up to 11 bytes, a price up to 22, SOH), so give it the message length + 34 bytes
/// (<see cref="TypicalMaxLength"/> does). An undersized span is a caller bug and throws. Field values are written as given; the caller must not pass SOH inside a value.
/// </para>
/// </remarks>
public ref struct FixMessageWriter
{
    /// <summary>A span size that holds any message the venue sends (CompIDs and texts are short).</summary>
    public const int TypicalMaxLength = 1024;

    private const int ReservedLengthDigits = 3;

    /// <summary>Room for "tag=" of any tag (up to 10 digits, '='); the fast path stores 8 bytes at once.</summary>
    private const int MaxTagPrefix = 11;

    /// <summary>"8=FIX.4.4|" + "9=".</summary>
    private const int LengthDigitsOffset = 12;

    private const int BodyStart = LengthDigitsOffset + ReservedLengthDigits + 1;

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
        "8=FIX.4.4\u00019="u8.CopyTo(_destination);
        _destination[BodyStart - 1] = FixConstants.Soh;
        _pos = BodyStart;
        AddSpan(FixTags.MsgType, msgType);
        AddSpan(FixTags.SenderCompID, header.SenderCompId);
        AddSpan(FixTags.TargetCompID, header.TargetCompId);
        AddInt(FixTags.MsgSeqNum, header.MsgSeqNum);
        if (header.PossDup)
        {
            AddChar(FixTags.PossDupFlag, (byte)'Y');
        }

        AddTimestamp(FixTags.SendingTime, header.SendingTime);
        if (header.PossDup)
        {
            AddTimestamp(FixTags.OrigSendingTime, header.OrigSendingTime);
        }
    }

    public void AddInt(int tag, long value)
    {
        Reserve(MaxTagPrefix + FixInt.MaxLongChars + 1);
        WriteTag(tag);
        ulong magnitude = (ulong)value;
        if (value < 0)
        {
            Unsafe.Add(ref Start, _pos++) = (byte)'-';
            magnitude = 0 - magnitude;
        }

        int digits = FixInt.CountDigits(magnitude);
        FixInt.WriteDigits(magnitude, MemoryMarshal.CreateSpan(ref Unsafe.Add(ref Start, _pos), digits));
        _pos += digits;
        Unsafe.Add(ref Start, _pos++) = FixConstants.Soh;
    }

    public void AddChar(int tag, byte value)
    {
        Reserve(MaxTagPrefix + 2);
        WriteTag(tag);
        Unsafe.Add(ref Start, _pos++) = value;
        Unsafe.Add(ref Start, _pos++) = FixConstants.Soh;
    }

    public void AddBool(int tag, bool value) => AddChar(tag, value ? (byte)'Y' : (byte)'N');

    public void AddSpan(int tag, scoped ReadOnlySpan<byte> value)
    {
        Reserve(MaxTagPrefix + value.Length + 1);
        WriteTag(tag);
        value.CopyTo(MemoryMarshal.CreateSpan(ref Unsafe.Add(ref Start, _pos), value.Length));
        _pos += value.Length;
        Unsafe.Add(ref Start, _pos++) = FixConstants.Soh;
    }

    /// <summary>Writes a fixed-point value exactly, in its shortest form (see <see cref="FixPrice.Format"/>).</summary>
    public void AddPrice(int tag, long units, int decimals)
    {
        Reserve(MaxTagPrefix + FixPrice.MaxChars + 1);
        WriteTag(tag);
        _pos += FixPrice.Format(units, decimals, MemoryMarshal.CreateSpan(ref Unsafe.Add(ref Start, _pos), FixPrice.MaxChars));
        Unsafe.Add(ref Start, _pos++) = FixConstants.Soh;
    }

    /// <summary>Writes a UTCTimestamp with milliseconds.</summary>
    public void AddTimestamp(int tag, long unixNanos)
    {
        Reserve(MaxTagPrefix + FixTimestamp.MillisecondsLength + 1);
        WriteTag(tag);
        _pos += FixTimestamp.FormatMilliseconds(unixNanos, MemoryMarshal.CreateSpan(ref Unsafe.Add(ref Start, _pos), FixTimestamp.MillisecondsLength));
        Unsafe.Add(ref Start, _pos++) = FixConstants.Soh;
    }

    /// <summary>Appends already-encoded "tag=value\x01" fields, e.g. a stored body being resent.</summary>
    public void AddRaw(scoped ReadOnlySpan<byte> fields)
    {
        fields.CopyTo(_destination[_pos..]);
        _pos += fields.Length;
    }

    /// <summary>Fills BodyLength, appends CheckSum, and returns the message's total length (from span start).</summary>
    public int Finish()
    {
        int bodyLength = _pos - BodyStart;
        int digits = FixInt.CountDigits((ulong)bodyLength);
        int shift = digits - ReservedLengthDigits;
        if (shift != 0)
        {
            _destination[BodyStart.._pos].CopyTo(_destination[(BodyStart + shift)..]);
            _pos += shift;
            _destination[BodyStart + shift - 1] = FixConstants.Soh;
        }

        FixInt.FormatUnsigned((ulong)bodyLength, _destination[LengthDigitsOffset..]);
        int checksum = FixChecksum.Compute(_destination[.._pos]);
        Span<byte> trailer = _destination.Slice(_pos, FixConstants.TrailerLength);
        "10="u8.CopyTo(trailer);
        FixChecksum.WriteThreeDigits(checksum, trailer[3..]);
        trailer[6] = FixConstants.Soh;
        _pos += FixConstants.TrailerLength;
        return _pos;
    }

    /// <summary>Finishes the message and commits it to <paramref name="output"/>, whose span this writer was given.</summary>
    public int FinishTo(IBufferWriter<byte> output)
    {
        int length = Finish();
        output.Advance(length);
        return length;
    }

    /// <summary>First byte of the destination; writes past <see cref="Reserve"/>d space are the only unchecked ones.</summary>
    private readonly ref byte Start => ref MemoryMarshal.GetReference(_destination);

    /// <summary>
    /// Checks once per field that <paramref name="bytes"/> more fit, so the field's own stores need no bounds checks.
    /// An undersized destination is a caller bug: it throws, as the checked span stores did.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly void Reserve(int bytes)
    {
        if ((uint)(_pos + bytes) > (uint)_destination.Length)
        {
            ThrowTooSmall();
        }
    }

    private static void ThrowTooSmall() =>
        throw new ArgumentException("The destination span is too small for this FIX message.");

    /// <summary>Writes "tag="; the caller has <see cref="Reserve"/>d at least <see cref="MaxTagPrefix"/> bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteTag(int tag)
    {
        if ((uint)tag < TagPrefixes.Count)
        {
            // One 8-byte store of the precomputed "tag=" (the bytes past its length are overwritten next).
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref Start, _pos), TagPrefixes.Bytes[tag]);
            _pos += TagPrefixes.Lengths[tag];
            return;
        }

        _pos += FixInt.FormatUnsigned((uint)tag, MemoryMarshal.CreateSpan(ref Unsafe.Add(ref Start, _pos), MaxTagPrefix - 1));
        Unsafe.Add(ref Start, _pos++) = (byte)'=';
    }

    /// <summary>"tag=" for every tag below <see cref="Count"/>, packed little-endian into a ulong each.</summary>
    private static class TagPrefixes
    {
        public const int Count = 10_000;

        public static readonly ulong[] Bytes = new ulong[Count];

        public static readonly byte[] Lengths = new byte[Count];

        static TagPrefixes()
        {
            Span<byte> text = stackalloc byte[sizeof(ulong)];
            for (int tag = 0; tag < Count; tag++)
            {
                text.Clear();
                int length = FixInt.FormatUnsigned((uint)tag, text);
                text[length++] = (byte)'=';
                Bytes[tag] = MemoryMarshal.Read<ulong>(text); // native order, as WriteTag stores it
                Lengths[tag] = (byte)length;
            }
        }
    }
}
