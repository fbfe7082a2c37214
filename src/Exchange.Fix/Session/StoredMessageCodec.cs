using System.Buffers.Binary;

namespace Exchange.Fix.Session;

/// <summary>
/// Byte layout of one stored outbound message, shared by the memory and file stores:
/// [int32 seq][int64 sendingTimeNanos][uint8 msgTypeLength][msgType][body]. Little-endian.
/// </summary>
internal static class StoredMessageCodec
{
    public const int FixedSize = 4 + 8 + 1;

    public static int SizeOf(ReadOnlySpan<byte> msgType, ReadOnlySpan<byte> body) => FixedSize + msgType.Length + body.Length;

    public static void Write(Span<byte> destination, int seq, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body)
    {
        if (msgType.IsEmpty || msgType.Length > byte.MaxValue)
        {
            throw new ArgumentException("MsgType must be 1..255 bytes", nameof(msgType));
        }

        BinaryPrimitives.WriteInt32LittleEndian(destination, seq);
        BinaryPrimitives.WriteInt64LittleEndian(destination[4..], sendingTimeNanos);
        destination[12] = (byte)msgType.Length;
        msgType.CopyTo(destination[FixedSize..]);
        body.CopyTo(destination[(FixedSize + msgType.Length)..]);
    }

    public static int ReadSeq(ReadOnlySpan<byte> source) => BinaryPrimitives.ReadInt32LittleEndian(source);

    /// <summary>False when <paramref name="source"/> is too short for its own msgType length (corrupt record).</summary>
    public static bool TryRead(ReadOnlySpan<byte> source, out StoredMessage message)
    {
        message = default;
        if (source.Length < FixedSize || source.Length < FixedSize + source[12])
        {
            return false;
        }

        int typeLength = source[12];
        message = new StoredMessage
        {
            MsgSeqNum = BinaryPrimitives.ReadInt32LittleEndian(source),
            SendingTimeNanos = BinaryPrimitives.ReadInt64LittleEndian(source[4..]),
            MsgType = source.Slice(FixedSize, typeLength),
            Body = source[(FixedSize + typeLength)..],
        };
        return true;
    }
}
