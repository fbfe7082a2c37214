using System.Buffers;
using System.Runtime.CompilerServices;

namespace Exchange.Fix.Codec;

/// <summary>
/// Finds one complete, verified FIX 4.4 message at the start of a <see cref="ReadOnlySequence{T}"/> read from a
/// PipeReader. Checks, in order: "8=FIX.4.4" first, "9=&lt;BodyLength&gt;" second, "35=" third, then that BodyLength
/// ends exactly before a "10=nnn" trailer and that the CheckSum matches.
/// </summary>
/// <remarks>
/// <para>Usage (one framer per connection, not thread-safe):</para>
/// <code>
/// ReadResult read = await reader.ReadAsync();
/// ReadOnlySequence&lt;byte&gt; buffer = read.Buffer;
/// while (true)
/// {
///     FrameResult r = framer.TryReadFrame(buffer, out ReadOnlySpan&lt;byte&gt; frame, out var consumed, out var examined, out var why);
///     if (r == FrameResult.Incomplete) { reader.AdvanceTo(consumed, examined); break; }
///     if (r == FrameResult.Complete) { message.Parse(frame); /* handle */ }
///     // Garbled: log `why`, drop it without consuming a sequence number.
///     buffer = buffer.Slice(consumed);
/// }
/// </code>
/// <para>
/// Memory is bounded: a message (or BodyLength) longer than <see cref="MaxMessageSize"/> is Garbled and skipped, so
/// an incomplete frame never holds more than MaxMessageSize bytes in the pipe; garbage without any "8=FIX" is
/// skipped entirely. Every Garbled result consumes at least one byte, so a caller that loops always progresses.
/// </para>
/// <para>
/// Allocation: none. A message inside the first segment is checked in place; one spanning segments is copied into a
/// buffer pre-allocated at MaxMessageSize. The returned span is valid until the next call or until the pipe
/// buffer is advanced; <see cref="FixMessage.Parse"/> copies it, so parse before advancing.
/// </para>
/// </remarks>
public sealed class FixFramer
{
    public const int DefaultMaxMessageSize = 8 * 1024;

    /// <summary>Bytes that always hold "8=FIX.4.4|9=nnnnnn|35=": enough to learn a message's total length.</summary>
    private const int HeadProbeLength = 32;

    internal const int MaxBodyLengthDigits = 6;

    private static ReadOnlySpan<byte> BeginString => "8=FIX.4.4\u0001"u8;

    private static ReadOnlySpan<byte> ResyncMarker => "8=FIX"u8;

    /// <summary>BeginString field plus the BodyLength tag: the first 12 bytes of every valid message.</summary>
    private static ReadOnlySpan<byte> HeadPrefix => "8=FIX.4.4\u00019="u8;

    private readonly byte[] _scratch;

    public FixFramer(int maxMessageSize = DefaultMaxMessageSize)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxMessageSize, HeadProbeLength);
        MaxMessageSize = maxMessageSize;
        _scratch = new byte[maxMessageSize];
    }

    public int MaxMessageSize { get; }

    /// <summary>Looks for one message at the start of <paramref name="buffer"/>.</summary>
    /// <param name="buffer">Unconsumed bytes from the pipe.</param>
    /// <param name="frame">On <see cref="FrameResult.Complete"/>: the whole message including 8= and 10=.</param>
    /// <param name="consumed">Complete: after the message. Incomplete: buffer start. Garbled: the resync point.</param>
    /// <param name="examined">Incomplete: buffer end (wait for more). Otherwise equal to <paramref name="consumed"/>.</param>
    /// <param name="reason">On <see cref="FrameResult.Garbled"/>: why.</param>
    public FrameResult TryReadFrame(
        in ReadOnlySequence<byte> buffer,
        out ReadOnlySpan<byte> frame,
        out SequencePosition consumed,
        out SequencePosition examined,
        out GarbledReason reason)
    {
        if (!buffer.IsSingleSegment)
        {
            return TryReadFrameAcrossSegments(buffer, out frame, out consumed, out examined, out reason);
        }

        FrameResult result = TryReadFrame(buffer.FirstSpan, out frame, out int used, out reason);
        if (result == FrameResult.Incomplete)
        {
            consumed = buffer.Start;
            examined = buffer.End;
        }
        else
        {
            consumed = buffer.GetPosition(used);
            examined = consumed;
        }

        return result;
    }

    /// <summary>
    /// <see cref="TryReadFrame(in ReadOnlySequence{byte}, out ReadOnlySpan{byte}, out SequencePosition, out SequencePosition, out GarbledReason)"/>
    /// for bytes in one contiguous buffer (a polled socket's receive buffer): the same results, with positions as
    /// byte counts. Incomplete consumes nothing: call again once more bytes have arrived after <paramref name="buffer"/>.
    /// </summary>
    /// <param name="consumed">Complete: the message's length. Incomplete: 0. Garbled: the resync point (at least 1).</param>
    public FrameResult TryReadFrame(ReadOnlySpan<byte> buffer, out ReadOnlySpan<byte> frame, out int consumed, out GarbledReason reason)
    {
        FrameResult result = Scan(buffer, MaxMessageSize, out int length, out reason);
        switch (result)
        {
            case FrameResult.Complete:
                frame = buffer[..length];
                consumed = length;
                break;
            case FrameResult.Incomplete:
                frame = default;
                consumed = 0;
                break;
            default:
                frame = default;
                consumed = FindResync(buffer);
                break;
        }

        return result;
    }

    /// <summary>A message that may cross segments of the pipe's buffer.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private FrameResult TryReadFrameAcrossSegments(
        in ReadOnlySequence<byte> buffer,
        out ReadOnlySpan<byte> frame,
        out SequencePosition consumed,
        out SequencePosition examined,
        out GarbledReason reason)
    {
        frame = default;
        ReadOnlySpan<byte> first = buffer.FirstSpan;
        FrameResult result = Scan(first, MaxMessageSize, out int length, out reason);
        ReadOnlySpan<byte> source = first;

        if (result == FrameResult.Incomplete)
        {
            // The message crosses segments: learn its length from a small head copy, and copy the whole message
            // only once every byte of it has arrived (so a slow sender does not cause repeated large copies).
            int probe = (int)Math.Min(buffer.Length, HeadProbeLength);
            buffer.Slice(0, probe).CopyTo(_scratch);
            result = Scan(_scratch.AsSpan(0, probe), MaxMessageSize, out length, out reason);
            if (result == FrameResult.Incomplete && length > probe && buffer.Length >= length)
            {
                buffer.Slice(0, length).CopyTo(_scratch);
                result = Scan(_scratch.AsSpan(0, length), MaxMessageSize, out length, out reason);
            }

            source = _scratch;
        }

        switch (result)
        {
            case FrameResult.Complete:
                frame = source[..length];
                consumed = buffer.GetPosition(length);
                examined = consumed;
                break;
            case FrameResult.Incomplete:
                consumed = buffer.Start;
                examined = buffer.End;
                break;
            default:
                consumed = FindResync(buffer);
                examined = consumed;
                break;
        }

        return result;
    }

    /// <summary>
    /// Frames a message that starts at <paramref name="span"/>[0]. On Complete and on Incomplete with a known header,
    /// <paramref name="length"/> is the message's total length; otherwise 0.
    /// </summary>
    internal static FrameResult Scan(ReadOnlySpan<byte> span, int maxMessageSize, out int length, out GarbledReason reason)
    {
        length = 0;
        reason = GarbledReason.None;
        int i;
        if (span.StartsWith(HeadPrefix))
        {
            // Common case, one constant-length compare (unrolled by the JIT); anything else takes the checks below,
            // which tell a partial head from a bad BeginString or BodyLength tag.
            i = HeadPrefix.Length;
        }
        else
        {
            FrameResult head = ScanHeadPrefix(span, out reason);
            if (head != FrameResult.Complete)
            {
                return head;
            }

            i = HeadPrefix.Length;
        }

        int digitsStart = i;
        int bodyLength = 0;
        while (true)
        {
            if (i >= span.Length)
            {
                return FrameResult.Incomplete;
            }

            byte b = span[i];
            if (b == FixConstants.Soh)
            {
                break;
            }

            if ((uint)(b - '0') > 9 || i - digitsStart >= MaxBodyLengthDigits)
            {
                return Garble(GarbledReason.BadBodyLength, out reason);
            }

            bodyLength = (bodyLength * 10) + (b - '0');
            i++;
        }

        if (i == digitsStart || bodyLength == 0)
        {
            return Garble(GarbledReason.BadBodyLength, out reason);
        }

        int bodyStart = i + 1;
        int total = bodyStart + bodyLength + FixConstants.TrailerLength;
        if (total > maxMessageSize)
        {
            return Garble(GarbledReason.MessageTooLarge, out reason);
        }

        // "35=" third: three byte compares when the bytes are there, the partial-aware check otherwise.
        bool msgTypeThird = span.Length >= bodyStart + 3
            ? span[bodyStart] == (byte)'3' && span[bodyStart + 1] == (byte)'5' && span[bodyStart + 2] == (byte)'='
            : MatchAt(span, bodyStart, "35="u8, out _);
        if (!msgTypeThird)
        {
            return Garble(GarbledReason.MsgTypeNotThird, out reason);
        }

        length = total;
        if (span.Length < total)
        {
            return FrameResult.Incomplete;
        }

        int trailer = bodyStart + bodyLength;
        if (span[trailer - 1] != FixConstants.Soh || !span.Slice(trailer).StartsWith("10="u8) || span[total - 1] != FixConstants.Soh)
        {
            length = 0;
            return Garble(GarbledReason.BodyLengthMismatch, out reason);
        }

        int d0 = span[trailer + 3] - '0';
        int d1 = span[trailer + 4] - '0';
        int d2 = span[trailer + 5] - '0';
        if ((uint)d0 > 9 || (uint)d1 > 9 || (uint)d2 > 9)
        {
            length = 0;
            return Garble(GarbledReason.BadCheckSumFormat, out reason);
        }

        if ((d0 * 100) + (d1 * 10) + d2 != FixChecksum.Compute(span[..trailer]))
        {
            length = 0;
            return Garble(GarbledReason.CheckSumMismatch, out reason);
        }

        return FrameResult.Complete;
    }

    /// <summary>
    /// Where to resume after a garbled start: the next "8=FIX" after the first byte, else the start of a trailing
    /// partial "8=FIX" (it may be the beginning of the next message), else the end of the buffer.
    /// </summary>
    internal static SequencePosition FindResync(in ReadOnlySequence<byte> buffer)
    {
        var reader = new SequenceReader<byte>(buffer);
        reader.Advance(1);
        Span<byte> tail = stackalloc byte[8];
        while (reader.TryAdvanceTo((byte)'8', advancePastDelimiter: false))
        {
            if (reader.Remaining >= ResyncMarker.Length)
            {
                if (reader.IsNext(ResyncMarker))
                {
                    return reader.Position;
                }
            }
            else
            {
                Span<byte> rest = tail[..(int)reader.Remaining];
                reader.TryCopyTo(rest);
                if (ResyncMarker.StartsWith(rest))
                {
                    return reader.Position;
                }
            }

            reader.Advance(1);
        }

        return buffer.End;
    }

    /// <summary><see cref="FindResync(in ReadOnlySequence{byte})"/> for a contiguous buffer, as a byte count.</summary>
    internal static int FindResync(ReadOnlySpan<byte> buffer)
    {
        int at = 1;
        while (at < buffer.Length)
        {
            int eight = buffer[at..].IndexOf((byte)'8');
            if (eight < 0)
            {
                break;
            }

            at += eight;
            ReadOnlySpan<byte> rest = buffer[at..];
            if (rest.Length >= ResyncMarker.Length ? rest.StartsWith(ResyncMarker) : ResyncMarker.StartsWith(rest))
            {
                return at;
            }

            at++;
        }

        return buffer.Length;
    }

    /// <summary>
    /// The slow form of the "8=FIX.4.4|9=" check: Complete when it is all there, Incomplete when the bytes so far
    /// agree with it, Garbled (BadBeginString or BadBodyLength) at the first disagreement.
    /// </summary>
    private static FrameResult ScanHeadPrefix(ReadOnlySpan<byte> span, out GarbledReason reason)
    {
        reason = GarbledReason.None;
        if (!MatchAt(span, 0, BeginString, out bool partial))
        {
            return Garble(GarbledReason.BadBeginString, out reason);
        }

        if (partial)
        {
            return FrameResult.Incomplete;
        }

        if (!MatchAt(span, BeginString.Length, "9="u8, out partial))
        {
            return Garble(GarbledReason.BadBodyLength, out reason);
        }

        return partial ? FrameResult.Incomplete : FrameResult.Complete;
    }

    /// <summary>True when the available bytes at <paramref name="at"/> agree with <paramref name="expected"/>;
    /// <paramref name="partial"/> says fewer bytes than expected were available.</summary>
    private static bool MatchAt(ReadOnlySpan<byte> span, int at, ReadOnlySpan<byte> expected, out bool partial)
    {
        int available = Math.Max(0, Math.Min(span.Length - at, expected.Length));
        partial = available < expected.Length;
        return available == 0 || span.Slice(at, available).SequenceEqual(expected[..available]);
    }

    private static FrameResult Garble(GarbledReason why, out GarbledReason reason)
    {
        reason = why;
        return FrameResult.Garbled;
    }
}
