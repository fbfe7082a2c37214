using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace Exchange.Fix.Codec;

/// <summary>
/// Unchecked "tag=value&lt;SOH&gt;" writers at a raw reference: each takes the write position and returns the position
/// after its field, so an encoder keeps the position in a register for a whole message. Through a ref struct's field
/// every field would wait on the previous field's store of the position; with a local the only serial work between
/// fields is one addition, and the CPU overlaps the formatting of consecutive fields.
/// </summary>
/// <remarks>
/// Contract: the caller has checked the room. A field of <see cref="MaxScalarField"/> bytes at most for Int, Char,
/// Price and Timestamp; <see cref="MaxSpanFieldOverhead"/> plus the value's length for Span; tags below 10,000. Any
/// store may run up to <see cref="FixDigits.Slack"/> bytes past the field's end (junk the next field overwrites), so
/// a message needs its maximum length plus <see cref="FixDigits.Slack"/>. <see cref="FixMessageWriter"/> is the
/// checked per-field API over these; encoders with a bounded shape check once (see ExecutionReportEncoder).
/// </remarks>
internal static class FixFields
{
    /// <summary>Upper bound of an Int, Char, Price or Timestamp field with a tag below 10,000: "9999=" (5) + a
    /// price (22) + SOH, rounded up.</summary>
    public const int MaxScalarField = 32;

    /// <summary>"9999=" + SOH around a Span field's value.</summary>
    public const int MaxSpanFieldOverhead = 6;

    /// <summary>"8=FIX.4.4|9=" then the three reserved BodyLength digits and SOH: where the body (35=...) starts.</summary>
    public const int BodyStart = 16;

    /// <summary>Offset of the BodyLength digits.</summary>
    private const int LengthDigitsOffset = 12;

    /// <summary>Bytes <see cref="Header"/> may write: 8/9, the CompID and MsgType fields, 34, 52, and 43/122 on a resend.</summary>
    public static int MaxHeaderLength(ReadOnlySpan<byte> msgType, in FixHeader header) =>
        BodyStart + (3 * MaxSpanFieldOverhead) + msgType.Length + header.SenderCompId.Length + header.TargetCompId.Length +
        (4 * MaxScalarField);

    /// <summary>
    /// Writes 8=FIX.4.4, a BodyLength placeholder, 35, 49, 56, 34, 43 and 122 when resending, 52; returns the position
    /// after them. <see cref="Finish"/> fills the BodyLength.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Header(ref byte d, ReadOnlySpan<byte> msgType, in FixHeader header)
    {
        // BeginString and the BodyLength placeholder ("000") in one 16-byte store.
        Vector128.Create("8=FIX.4.4\u00019=000\u0001"u8).StoreUnsafe(ref d);
        int pos = Bytes(ref d, BodyStart, FixTags.MsgType, msgType);
        pos = Bytes(ref d, pos, FixTags.SenderCompID, header.SenderCompId);
        pos = Bytes(ref d, pos, FixTags.TargetCompID, header.TargetCompId);
        pos = Int(ref d, pos, FixTags.MsgSeqNum, header.MsgSeqNum);
        if (header.PossDup)
        {
            pos = Char(ref d, pos, FixTags.PossDupFlag, (byte)'Y');
        }

        pos = Timestamp(ref d, pos, FixTags.SendingTime, header.SendingTime);
        if (header.PossDup)
        {
            pos = Timestamp(ref d, pos, FixTags.OrigSendingTime, header.OrigSendingTime);
        }

        return pos;
    }

    /// <summary>
    /// Completes a message <see cref="Header"/> started at the start of <paramref name="message"/> and whose fields end
    /// at <paramref name="end"/>: fills BodyLength (moving the body when it is not 3 digits long), appends CheckSum,
    /// returns the total length. Checked: throws when the trailer (or a longer BodyLength) does not fit.
    /// </summary>
    public static int Finish(Span<byte> message, int end)
    {
        int bodyLength = end - BodyStart;
        ref byte d = ref MemoryMarshal.GetReference(message);
        if ((uint)(bodyLength - 100) < 900)
        {
            // The common case: exactly the three reserved digits, no move.
            ulong digits = FixDigits.EightDigitsAscii((uint)bodyLength) >> 40;
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, LengthDigitsOffset), (ushort)digits);
            Unsafe.Add(ref d, LengthDigitsOffset + 2) = (byte)(digits >> 16);
        }
        else
        {
            int shift = FixInt.CountDigits((ulong)bodyLength) - 3;
            message[BodyStart..end].CopyTo(message[(BodyStart + shift)..]);
            end += shift;
            message[BodyStart + shift - 1] = FixConstants.Soh;
            FixInt.FormatUnsigned((ulong)bodyLength, message[LengthDigitsOffset..]);
        }

        int checksum = FixChecksum.Compute(message[..end]);
        if ((uint)(end + FixConstants.TrailerLength) > (uint)message.Length)
        {
            ThrowTooSmall();
        }

        ulong checksumDigits = FixDigits.EightDigitsAscii((uint)checksum) >> 40;
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, end), (uint)('1' | ('0' << 8) | ('=' << 16)) | ((uint)checksumDigits << 24));
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, end + 4), (ushort)(checksumDigits >> 8));
        Unsafe.Add(ref d, end + 6) = FixConstants.Soh;
        return end + FixConstants.TrailerLength;
    }

    public static int Int(ref byte d, int pos, int tag, long value)
    {
        pos = Tag(ref d, pos, tag);
        ulong magnitude = (ulong)value;
        if (value < 0)
        {
            Unsafe.Add(ref d, pos++) = (byte)'-';
            magnitude = 0 - magnitude;
        }

        pos += FixDigits.WriteUnsigned(ref Unsafe.Add(ref d, pos), magnitude);
        Unsafe.Add(ref d, pos) = FixConstants.Soh;
        return pos + 1;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Char(ref byte d, int pos, int tag, byte value)
    {
        pos = Tag(ref d, pos, tag);
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, pos), (ushort)(value | (FixConstants.Soh << 8)));
        return pos + 2;
    }

    public static int Bytes(ref byte d, int pos, int tag, scoped ReadOnlySpan<byte> value)
    {
        pos = Tag(ref d, pos, tag);
        Copy(ref Unsafe.Add(ref d, pos), value);
        pos += value.Length;
        Unsafe.Add(ref d, pos) = FixConstants.Soh;
        return pos + 1;
    }

    /// <summary>A fixed-point value, exactly, in its shortest form (see <see cref="FixDigits.WritePrice"/>).</summary>
    public static int Price(ref byte d, int pos, int tag, long units, int decimals)
    {
        if ((uint)decimals > FixPrice.MaxDecimals)
        {
            ThrowDecimals();
        }

        pos = Tag(ref d, pos, tag);
        pos += FixDigits.WritePrice(ref Unsafe.Add(ref d, pos), units, decimals);
        Unsafe.Add(ref d, pos) = FixConstants.Soh;
        return pos + 1;
    }

    /// <summary>A UTCTimestamp with milliseconds.</summary>
    public static int Timestamp(ref byte d, int pos, int tag, long unixNanos)
    {
        pos = Tag(ref d, pos, tag);
        FixTimestamp.WriteMilliseconds(ref Unsafe.Add(ref d, pos), unixNanos);
        pos += FixTimestamp.MillisecondsLength;
        Unsafe.Add(ref d, pos) = FixConstants.Soh;
        return pos + 1;
    }

    /// <summary>Writes "tag=" and returns the position after it. Tags of 10,000 and above (never on the hot path)
    /// need up to 11 bytes: <see cref="FixMessageWriter"/> claims that much for every field.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Tag(ref byte d, int pos, int tag)
    {
        if ((uint)tag < TagPrefixes.Count)
        {
            // One 8-byte store of the precomputed "tag=" (the bytes past its length are overwritten next).
            ulong entry = TagPrefixes.Entries[tag];
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, pos), entry);
            return pos + (int)(entry >> TagPrefixes.LengthShift);
        }

        return LongTag(ref d, pos, tag);
    }

    private static int LongTag(ref byte d, int pos, int tag)
    {
        pos += FixDigits.WriteUnsigned(ref Unsafe.Add(ref d, pos), (uint)tag);
        Unsafe.Add(ref d, pos) = (byte)'=';
        return pos + 1;
    }

    /// <summary>Copies a value; the short ones every message carries (CompIDs, ids, symbols) with two overlapping
    /// loads and stores instead of a call.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Copy(ref byte d, scoped ReadOnlySpan<byte> value)
    {
        ref byte s = ref MemoryMarshal.GetReference(value);
        int n = value.Length;
        if ((uint)(n - 8) <= 8)
        {
            ulong head = Unsafe.ReadUnaligned<ulong>(ref s);
            ulong tail = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref s, n - 8));
            Unsafe.WriteUnaligned(ref d, head);
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, n - 8), tail);
        }
        else if ((uint)(n - 4) < 4)
        {
            uint head = Unsafe.ReadUnaligned<uint>(ref s);
            uint tail = Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref s, n - 4));
            Unsafe.WriteUnaligned(ref d, head);
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, n - 4), tail);
        }
        else
        {
            value.CopyTo(MemoryMarshal.CreateSpan(ref d, n));
        }
    }

    internal static void ThrowTooSmall() =>
        throw new ArgumentException("The destination span is too small for this FIX message.");

    private static void ThrowDecimals() =>
        throw new ArgumentOutOfRangeException("decimals", $"At most {FixPrice.MaxDecimals} decimals.");

    /// <summary>"tag=" for every tag below <see cref="Count"/>, packed little-endian into a ulong each (at most 5
    /// bytes: "9999="), with the prefix's length in the top byte.</summary>
    private static class TagPrefixes
    {
        public const int Count = 10_000;

        public const int LengthShift = 56;

        public static readonly ulong[] Entries = Build();

        private static ulong[] Build()
        {
            var entries = new ulong[Count];
            Span<byte> text = stackalloc byte[sizeof(ulong)];
            for (int tag = 0; tag < Count; tag++)
            {
                text.Clear();
                int length = FixInt.FormatUnsigned((uint)tag, text);
                text[length++] = (byte)'=';
                text[^1] = (byte)length;
                entries[tag] = MemoryMarshal.Read<ulong>(text); // native order, as Tag stores it
            }

            return entries;
        }
    }
}
