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
/// Price and Timestamp; <see cref="MaxSpanFieldOverhead"/> plus the value's length for Bytes. Tags are passed as
/// packed prefixes (<see cref="PrefixOf"/>). Stores run past a field's end (junk the next field overwrites) but stay
/// within the field's maximum plus <see cref="FixDigits.Slack"/>, so a message needs the sum of its fields' maxima
/// plus <see cref="FixDigits.Slack"/>. <see cref="FixMessageWriter"/> is the
/// checked per-field API over these; encoders with a bounded shape check once (see ExecutionReportEncoder).
/// </remarks>
internal static class FixFields
{
    /// <summary>Upper bound of an Int, Char, Price or Timestamp field: "999999=" (7) + a price (22) + SOH.</summary>
    public const int MaxScalarField = 30;

    /// <summary>"999999=" + SOH around a Bytes field's value, and room for the 8-byte tag store.</summary>
    public const int MaxSpanFieldOverhead = 9;

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
        int pos = Bytes(ref d, BodyStart, PrefixOf(FixTags.MsgType), msgType);
        pos = Bytes(ref d, pos, PrefixOf(FixTags.SenderCompID), header.SenderCompId);
        pos = Bytes(ref d, pos, PrefixOf(FixTags.TargetCompID), header.TargetCompId);
        pos = Int(ref d, pos, PrefixOf(FixTags.MsgSeqNum), header.MsgSeqNum);
        if (header.PossDup)
        {
            pos = Char(ref d, pos, PrefixOf(FixTags.PossDupFlag), (byte)'Y');
        }

        pos = Timestamp(ref d, pos, PrefixOf(FixTags.SendingTime), header.SendingTime);
        if (header.PossDup)
        {
            pos = Timestamp(ref d, pos, PrefixOf(FixTags.OrigSendingTime), header.OrigSendingTime);
        }

        return pos;
    }

    /// <summary>
    /// Where <see cref="Header"/> wrote SendingTime's 21 bytes, given the position it returned (52 is its last field
    /// unless resending), or -1 on a resend.
    /// </summary>
    public static int SendingTimeAt(in FixHeader header, int headerEnd) =>
        header.PossDup ? -1 : headerEnd - (FixTimestamp.MillisecondsLength + 1);

    /// <summary>
    /// Completes a message <see cref="Header"/> started at the start of <paramref name="message"/> and whose fields end
    /// at <paramref name="end"/>: fills BodyLength (moving the body when it is not 3 digits long), appends CheckSum,
    /// returns the total length. Checked: throws when the trailer (or a longer BodyLength) does not fit.
    /// </summary>
    public static int Finish(Span<byte> message, int end) => Finish(message, end, end, 0);

    /// <summary>
    /// <see cref="Finish(Span{byte}, int)"/> for a message whose bytes from <paramref name="summedFrom"/> to
    /// <paramref name="end"/> are already summed (<paramref name="summed"/>, modulo 256 is enough): only the bytes before
    /// them are read back for the CheckSum.
    /// </summary>
    public static int Finish(Span<byte> message, int end, int summedFrom, ulong summed)
    {
        int bodyLength = end - BodyStart;
        ref byte d = ref MemoryMarshal.GetReference(message);
        if ((uint)(bodyLength - 100) < 900)
        {
            // The common case: exactly the three reserved digits, no move. The message is summed with the "000"
            // placeholder (stored long ago, with the header) and the digits' difference added, and only then are the
            // digits stored: summed after, the read-back would wait for those youngest stores to complete.
            ulong digits = FixDigits.EightDigitsAscii((uint)bodyLength) >> 40;
            summed += FixDigits.ByteSum((uint)digits & 0xFF_FFFF) - (3 * '0');
            summed += (ulong)FixChecksum.Compute(message[..summedFrom]);
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, LengthDigitsOffset), (ushort)digits);
            Unsafe.Add(ref d, LengthDigitsOffset + 2) = (byte)(digits >> 16);
        }
        else
        {
            int shift = FixInt.CountDigits((ulong)bodyLength) - 3;
            message[BodyStart..end].CopyTo(message[(BodyStart + shift)..]);
            end += shift;
            summedFrom += shift;
            message[BodyStart + shift - 1] = FixConstants.Soh;
            FixInt.FormatUnsigned((ulong)bodyLength, message[LengthDigitsOffset..]);
            summed += (ulong)FixChecksum.Compute(message[..summedFrom]);
        }

        int checksum = (int)(summed & 0xFF);
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

    /// <summary>
    /// A whole message around an already-encoded <paramref name="body"/> (the fields after the standard header, as a
    /// session stores them): header, body, BodyLength, CheckSum; returns the length. Checked: throws when
    /// <paramref name="destination"/> cannot hold it (<see cref="MaxFrameLength"/> is always enough).
    /// </summary>
    public static int Frame(Span<byte> destination, ReadOnlySpan<byte> msgType, in FixHeader header, ReadOnlySpan<byte> body)
    {
        if (destination.Length < MaxFrameLength(msgType, header, body.Length))
        {
            ThrowTooSmall();
        }

        ref byte d = ref MemoryMarshal.GetReference(destination);
        int pos = Header(ref d, msgType, header);
        ulong bodySum = FixChecksum.CopyAndSum(body, ref Unsafe.Add(ref d, pos));
        return Finish(destination, pos + body.Length, pos, bodySum);
    }

    /// <summary>Room <see cref="Frame"/> needs for a body of <paramref name="bodyLength"/> bytes.</summary>
    public static int MaxFrameLength(ReadOnlySpan<byte> msgType, in FixHeader header, int bodyLength) =>
        MaxHeaderLength(msgType, header) + bodyLength + FixConstants.TrailerLength + FixDigits.Slack + MaxBodyLengthGrowth;

    /// <summary>Bytes a BodyLength longer than the 3 reserved digits can add (a body under 10^9 bytes).</summary>
    private const int MaxBodyLengthGrowth = 6;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Int(ref byte d, int pos, ulong tag, long value)
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
    public static int Char(ref byte d, int pos, ulong tag, byte value)
    {
        pos = Tag(ref d, pos, tag);
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, pos), (ushort)(value | (FixConstants.Soh << 8)));
        return pos + 2;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Bytes(ref byte d, int pos, ulong tag, scoped ReadOnlySpan<byte> value)
    {
        pos = Tag(ref d, pos, tag);
        Copy(ref Unsafe.Add(ref d, pos), value);
        pos += value.Length;
        Unsafe.Add(ref d, pos) = FixConstants.Soh;
        return pos + 1;
    }

    /// <summary>A fixed-point value, exactly, in its shortest form (see <see cref="FixDigits.WritePrice"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Price(ref byte d, int pos, ulong tag, long units, int decimals)
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
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Timestamp(ref byte d, int pos, ulong tag, long unixNanos)
    {
        pos = Tag(ref d, pos, tag);
        FixTimestamp.WriteMilliseconds(ref Unsafe.Add(ref d, pos), unixNanos);
        pos += FixTimestamp.MillisecondsLength;
        Unsafe.Add(ref d, pos) = FixConstants.Soh;
        return pos + 1;
    }

    /// <summary>A UTCTimestamp copied from the 21 bytes at <paramref name="from"/> (an earlier timestamp of this message,
    /// e.g. SendingTime for a TransactTime of the same millisecond): two loads and stores instead of formatting.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int CopiedTimestamp(ref byte d, int pos, ulong tag, int from)
    {
        pos = Tag(ref d, pos, tag);
        ref byte source = ref Unsafe.Add(ref d, from);
        Vector128<byte> head = Vector128.LoadUnsafe(ref source);
        ulong tail = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref source, FixTimestamp.MillisecondsLength - 8));
        head.StoreUnsafe(ref Unsafe.Add(ref d, pos));
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, pos + FixTimestamp.MillisecondsLength - 8), tail);
        pos += FixTimestamp.MillisecondsLength;
        Unsafe.Add(ref d, pos) = FixConstants.Soh;
        return pos + 1;
    }

    /// <summary>Writes the packed "tag=" (see <see cref="Prefix"/>) and returns the position after it: one 8-byte
    /// store (the bytes past the prefix are overwritten next).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Tag(ref byte d, int pos, ulong tag)
    {
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref d, pos), tag);
        return pos + (int)(tag >> PrefixLengthShift);
    }

    /// <summary>
    /// "tag=" packed little-endian into a ulong with its length in the top byte, for 0 &lt;= tag &lt; 1,000,000 (at most
    /// 7 bytes). Writers take tags in this form so each tag is one 8-byte store. Use <see cref="PrefixOf"/> on hot
    /// paths: a table load. (Constant-folding this for constant tags was tried: under dynamic PGO the resulting tier-1
    /// ExecutionReport body ran about twice as slow as with the table, so the table it is.)
    /// </summary>
    public static ulong Prefix(int tag)
    {
        if ((uint)tag >= MaxTag)
        {
            ThrowTag(tag);
        }

        // All six digits (first in the low byte), the leading zeros shifted out, then '=' and the length.
        uint t = (uint)tag;
        int length = t < 10 ? 1 : t < 100 ? 2 : t < 1_000 ? 3 : t < 10_000 ? 4 : t < 100_000 ? 5 : 6;
        ulong sixDigits = DigitAt(t / 100_000, 0) | DigitAt(t / 10_000, 1) | DigitAt(t / 1_000, 2) | DigitAt(t / 100, 3) |
                          DigitAt(t / 10, 4) | DigitAt(t, 5);
        return (sixDigits >> ((6 - length) * 8)) | ((ulong)'=' << (length * 8)) | ((ulong)(length + 1) << PrefixLengthShift);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong DigitAt(uint value, int index) => (ulong)('0' + (value % 10)) << (index * 8);

    /// <summary><see cref="Prefix"/> by a table load for the usual tags (below 10,000).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong PrefixOf(int tag) => (uint)tag < TagPrefixes.Count ? TagPrefixes.Entries[tag] : Prefix(tag);

    /// <summary>Tags must be below this (6 digits, so the prefix and its length fit a ulong).</summary>
    public const int MaxTag = 1_000_000;

    private const int PrefixLengthShift = 56;

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
        else if ((uint)(n - 1) < 3)
        {
            // MsgType and one-character values: a byte and an overlapping pair, first and last.
            d = s;
            Unsafe.Add(ref d, n >> 1) = Unsafe.Add(ref s, n >> 1);
            Unsafe.Add(ref d, n - 1) = Unsafe.Add(ref s, n - 1);
        }
        else if (n != 0)
        {
            value.CopyTo(MemoryMarshal.CreateSpan(ref d, n));
        }
    }

    internal static void ThrowTooSmall() =>
        throw new ArgumentException("The destination span is too small for this FIX message.");

    private static void ThrowDecimals() =>
        throw new ArgumentOutOfRangeException("decimals", $"At most {FixPrice.MaxDecimals} decimals.");

    private static void ThrowTag(int tag) =>
        throw new ArgumentOutOfRangeException(nameof(tag), tag, $"FIX tags written by the codec must be 0..{MaxTag - 1}.");

    /// <summary><see cref="Prefix"/> of every tag below <see cref="Count"/>.</summary>
    private static class TagPrefixes
    {
        public const int Count = 10_000;

        public static readonly ulong[] Entries = Build();

        private static ulong[] Build()
        {
            var entries = new ulong[Count];
            for (int tag = 0; tag < Count; tag++)
            {
                entries[tag] = Prefix(tag);
            }

            return entries;
        }
    }
}
