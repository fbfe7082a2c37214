using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Exchange.Fix.Codec;

/// <summary>
/// A reusable, parsed view of one FIX message: a copy of the frame's bytes plus a table of (tag, value offset,
/// value length) entries. One instance per connection; <see cref="Parse"/> overwrites the previous message.
/// No strings: values are returned as spans into the instance's own buffer, valid until the next Parse.
/// </summary>
/// <remarks>
/// <para>
/// Parse copies the frame so the caller may advance the PipeReader right away and the view stays valid while the
/// message is handled (for example while the session layer decides to queue it).
/// </para>
/// <para>
/// Parse reports only syntax problems (non-numeric or zero tag, empty value, too many fields) as <see cref="Error"/>;
/// repeated tags are marked per field (<see cref="IsRepeatAt"/>) because repeating groups legitimately repeat
/// tags — whether a repeat is an error is the dictionary's call (<see cref="Dictionary.FixDictionary.Validate"/>).
/// Lookups by tag return the first occurrence. Not thread-safe; allocates nothing after construction.
/// </para>
/// </remarks>
public sealed class FixMessage
{
    public const int DefaultMaxFields = 512;

    /// <summary>Tags below this are found through a direct table; higher tags (user-defined) by a linear scan.</summary>
    private const int TagTableSize = 1024;

    private readonly byte[] _buffer;
    private readonly ulong[] _soh;
    private readonly int _maxMessageSize;
    private readonly Field[] _fields;
    private readonly int[] _tagStamp = new int[TagTableSize];
    private readonly ushort[] _tagIndex = new ushort[TagTableSize];
    private int _generation;
    private int _length;
    private int _count;
    private int _msgTypeIndex = -1;

    public FixMessage(int maxMessageSize = FixFramer.DefaultMaxMessageSize, int maxFields = DefaultMaxFields)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxFields, ushort.MaxValue);
        ArgumentOutOfRangeException.ThrowIfNegative(maxMessageSize);
        _maxMessageSize = maxMessageSize;
        _buffer = new byte[(SohBitmap.WordsFor(maxMessageSize) * 64) + SohBitmap.Padding];
        _soh = new ulong[SohBitmap.WordsFor(maxMessageSize)];
        _fields = new Field[maxFields];
    }

    /// <summary>The first syntax problem of the last <see cref="Parse"/>, or <see cref="FixFieldError.None"/>.</summary>
    public FixFieldError Error { get; private set; }

    /// <summary>The whole message as received, 8= through 10=.</summary>
    public ReadOnlySpan<byte> Raw => _buffer.AsSpan(0, _length);

    public int FieldCount => _count;

    /// <summary>The parsed fields in wire order, for validation loops that visit every field (no per-field calls).</summary>
    internal ReadOnlySpan<Field> Fields => _fields.AsSpan(0, _count);

    /// <summary>MsgType (35) bytes; empty if absent.</summary>
    public ReadOnlySpan<byte> MsgType => _msgTypeIndex < 0 ? default : ValueAt(_msgTypeIndex);

    /// <summary>MsgType as an enum; <see cref="FixMsgType.Other"/> for types the venue does not name.</summary>
    public FixMsgType MsgTypeKind { get; private set; }

    public ReadOnlySpan<byte> SenderCompId => GetSpan(FixTags.SenderCompID);

    public ReadOnlySpan<byte> TargetCompId => GetSpan(FixTags.TargetCompID);

    /// <summary>True only when PossDupFlag (43) is present and "Y".</summary>
    public bool PossDupFlag => ReadBool(FixTags.PossDupFlag, out bool value) == FieldStatus.Ok && value;

    public FieldStatus ReadMsgSeqNum(out int seqNum) => ReadInt(FixTags.MsgSeqNum, out seqNum);

    public FieldStatus ReadSendingTime(out long unixNanos) => ReadTimestamp(FixTags.SendingTime, out unixNanos);

    public FieldStatus ReadOrigSendingTime(out long unixNanos) => ReadTimestamp(FixTags.OrigSendingTime, out unixNanos);

    /// <summary>
    /// Copies <paramref name="frame"/> (a whole message, normally from <see cref="FixFramer"/>) and indexes its fields.
    /// Returns false when <see cref="Error"/> is set; the fields that could be read are still available, so the
    /// caller can report MsgSeqNum and MsgType in a Reject.
    /// </summary>
    public bool Parse(ReadOnlySpan<byte> frame)
    {
        if (frame.Length > _maxMessageSize)
        {
            throw new ArgumentException("Frame is longer than this message's buffer; size both from the same maximum.", nameof(frame));
        }

        frame.CopyTo(_buffer);
        _length = frame.Length;
        _count = 0;
        _msgTypeIndex = -1;
        MsgTypeKind = FixMsgType.Other;
        Error = FixFieldError.None;
        NextGeneration();

        // Fields end at SOH bits; a last field without SOH (not a valid frame, but Parse takes any span) runs to the end.
        SohBitmap.Build(_buffer, _length, _soh);
        int pos = 0;
        int words = SohBitmap.WordsFor(_length);
        for (int w = 0; w < words; w++)
        {
            ulong bits = _soh[w];
            while (bits != 0)
            {
                int end = (w * 64) + BitOperations.TrailingZeroCount(bits);
                bits &= bits - 1;
                ParseField(pos, end);
                pos = end + 1;
            }
        }

        if (pos < _length)
        {
            ParseField(pos, _length);
        }

        if (_msgTypeIndex >= 0)
        {
            MsgTypeKind = FixMsgTypes.FromWire(MsgType);
        }

        return !Error.IsError;
    }

    /// <summary>Index of the first field with <paramref name="tag"/>, or -1.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int IndexOf(int tag)
    {
        if ((uint)tag < TagTableSize)
        {
            return _tagStamp[tag] == _generation ? _tagIndex[tag] : -1;
        }

        for (int i = 0; i < _count; i++)
        {
            if (_fields[i].Tag == tag)
            {
                return i;
            }
        }

        return -1;
    }

    public bool Has(int tag) => IndexOf(tag) >= 0;

    public int TagAt(int index) => _fields[index].Tag;

    public ReadOnlySpan<byte> ValueAt(int index)
    {
        ref readonly Field field = ref _fields[index];
        return _buffer.AsSpan(field.Offset, field.Length);
    }

    /// <summary>True when an earlier field of the same message had the same tag.</summary>
    public bool IsRepeatAt(int index) => _fields[index].IsRepeat;

    /// <summary>Position of the field's "tag=" in <see cref="Raw"/>; useful to slice the body for a resend.</summary>
    public int FieldStartAt(int index) => _fields[index].Start;

    /// <summary>The value of the first <paramref name="tag"/>, or empty when absent (an empty value is a parse error).</summary>
    public ReadOnlySpan<byte> GetSpan(int tag)
    {
        int index = IndexOf(tag);
        return index < 0 ? default : ValueAt(index);
    }

    public bool TryGetSpan(int tag, out ReadOnlySpan<byte> value)
    {
        int index = IndexOf(tag);
        value = index < 0 ? default : ValueAt(index);
        return index >= 0;
    }

    public FieldStatus ReadInt(int tag, out int value)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            value = 0;
            return FieldStatus.Missing;
        }

        return FixInt.TryParse(ValueAt(index), out value);
    }

    public FieldStatus ReadLong(int tag, out long value)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            value = 0;
            return FieldStatus.Missing;
        }

        return FixInt.TryParse(ValueAt(index), out value);
    }

    public FieldStatus ReadChar(int tag, out byte value)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            value = 0;
            return FieldStatus.Missing;
        }

        return FixChar.TryParse(ValueAt(index), out value);
    }

    public FieldStatus ReadBool(int tag, out bool value)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            value = false;
            return FieldStatus.Missing;
        }

        return FixBool.TryParse(ValueAt(index), out value);
    }

    public FieldStatus ReadTimestamp(int tag, out long unixNanos)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            unixNanos = 0;
            return FieldStatus.Missing;
        }

        return FixTimestamp.TryParse(ValueAt(index), out unixNanos);
    }

    /// <summary>Reads a decimal as a long count of 10^-<paramref name="decimals"/> units, exactly (see <see cref="FixPrice"/>).</summary>
    public FieldStatus ReadPrice(int tag, int decimals, out long units)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            units = 0;
            return FieldStatus.Missing;
        }

        return FixPrice.TryParse(ValueAt(index), decimals, out units);
    }

    public bool TryGetInt(int tag, out int value) => ReadInt(tag, out value) == FieldStatus.Ok;

    public bool TryGetLong(int tag, out long value) => ReadLong(tag, out value) == FieldStatus.Ok;

    public bool TryGetChar(int tag, out byte value) => ReadChar(tag, out value) == FieldStatus.Ok;

    public bool TryGetBool(int tag, out bool value) => ReadBool(tag, out value) == FieldStatus.Ok;

    public bool TryGetTimestamp(int tag, out long unixNanos) => ReadTimestamp(tag, out unixNanos) == FieldStatus.Ok;

    public bool TryGetPrice(int tag, int decimals, out long units) => ReadPrice(tag, decimals, out units) == FieldStatus.Ok;

    /// <summary>Indexes the field in _buffer[start..end) (end is its SOH or the message end).</summary>
    private void ParseField(int start, int end)
    {
        // Safe: 0 <= start <= end <= _length <= _buffer.Length (end comes from the SOH bitmap, which is masked to
        // _length), and every read below is at an index in [start, end).
        ref byte data = ref MemoryMarshal.GetArrayDataReference(_buffer);
        int tag = 0;
        int pos = start;
        while (pos < end)
        {
            byte b = Unsafe.Add(ref data, pos);
            if (b == (byte)'=')
            {
                break;
            }

            uint digit = (uint)(b - '0');
            if (digit > 9 || tag > 99_999_999)
            {
                tag = -1;
                break;
            }

            tag = (tag * 10) + (int)digit;
            pos++;
        }

        if (tag <= 0 || pos == start || pos >= end || Unsafe.Add(ref data, start) == (byte)'0')
        {
            SetError(0, SessionRejectReason.InvalidTagNumber);
            return;
        }

        int valueStart = pos + 1;
        if (valueStart == end)
        {
            SetError(tag, SessionRejectReason.TagSpecifiedWithoutValue);
        }

        if (_count == _fields.Length)
        {
            SetError(tag, SessionRejectReason.Other);
            return;
        }

        bool repeat = false;
        if ((uint)tag < TagTableSize)
        {
            // Safe: tag < TagTableSize, the length of both tables.
            ref int stamp = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_tagStamp), tag);
            if (stamp == _generation)
            {
                repeat = true;
            }
            else
            {
                stamp = _generation;
                Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_tagIndex), tag) = (ushort)_count;
            }
        }
        else
        {
            repeat = IndexOf(tag) >= 0;
        }

        if (tag == FixTags.MsgType && !repeat)
        {
            _msgTypeIndex = _count;
        }

        _fields[_count++] = new Field(tag, start, valueStart, end - valueStart, repeat);
    }

    private void SetError(int tag, SessionRejectReason reason)
    {
        if (!Error.IsError)
        {
            Error = FixFieldError.Of(tag, reason);
        }
    }

    /// <summary>A new stamp makes every tag-table entry stale in O(1); on wrap-around the table is cleared once.</summary>
    private void NextGeneration()
    {
        if (++_generation == int.MaxValue)
        {
            Array.Clear(_tagStamp);
            _generation = 1;
        }
    }

    /// <summary>One parsed field: value at Raw[Offset..Offset+Length), "tag=" at Raw[Start].</summary>
    internal readonly record struct Field(int Tag, int Start, int Offset, int Length, bool IsRepeat);
}
