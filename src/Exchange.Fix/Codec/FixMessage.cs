using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Exchange.Fix.Dictionary;

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
/// Parse reports only syntax problems (non-numeric or zero tag, empty value, too many fields, a DATA field whose
/// LENGTH field is missing or does not match it) as <see cref="Error"/>; repeated tags are marked per field
/// (<see cref="IsRepeatAt"/>) because repeating groups legitimately repeat tags — whether a repeat is an error is the
/// dictionary's call (<see cref="Dictionary.FixDictionary.Validate"/>).
/// Lookups by tag return the first occurrence. Not thread-safe; allocates nothing after construction.
/// </para>
/// <para>
/// Validation (<see cref="Parse(ReadOnlySpan{byte}, FixDictionary)"/> or <see cref="FixDictionary.Validate"/>) keeps
/// the typed value of every field it checked (INT, CHAR, BOOLEAN, UTCTimestamp, and decimals as digits + scale), so
/// the typed readers the session layer and the mappers call afterwards read that value instead of parsing the bytes
/// again. Results are identical either way; only the work is shared.
/// </para>
/// </remarks>
public sealed partial class FixMessage
{
    public const int DefaultMaxFields = 512;

    /// <summary>Tags below this are found through a direct table; higher tags (user-defined) by a linear scan.</summary>
    internal const int TagTableSize = 1024;

    /// <summary>Generations live in the high 16 bits of a tag slot; the low 16 hold the field index.</summary>
    private const int GenerationShift = 16;

    private readonly byte[] _buffer;
    private readonly ulong[] _soh;
    private readonly int _maxMessageSize;
    private readonly Field[] _fields;

    /// <summary>The LENGTH/DATA pairs of the tokenizing under way (for its error reasons); set before any field is read.</summary>
    private DataFieldPairs _dataFields = null!;

    /// <summary>
    /// Per tag below <see cref="TagTableSize"/>: the parse generation (high 16 bits) and the index of the tag's first
    /// field (low 16 bits), so a lookup is one 4-byte load and a new message invalidates every slot in O(1).
    /// </summary>
    private readonly uint[] _tagSlots = new uint[TagTableSize];
    private uint _generation;

    /// <summary>
    /// The tag table <see cref="IndexOf"/> reads: <see cref="_tagSlots"/> after a full parse, or the guide's ready-made
    /// table after a guided one (whose slots carry <see cref="ParseGuide.SlotGeneration"/>).
    /// </summary>
    private uint[] _slots;
    private uint _slotGeneration;
    private LayoutPlan? _guided;
    private int _length;
    private int _count;
    private int _msgTypeIndex = -1;
    /// <summary>The dictionary that gave <see cref="_validation"/>; meaningful only while <see cref="_isValidated"/>.</summary>
    /// <remarks>Kept across messages (only <see cref="_isValidated"/> is cleared) so a message does not pay a GC write barrier to store it.</remarks>
    private FixDictionary? _validatedBy;
    private bool _isValidated;
    private FixFieldError _validation;
    private TimestampCache _timestampCache;
    private LayoutPlans? _layoutPlans;

    /// <summary>FNV-1a style mixing of the tag sequence into <see cref="LayoutHash"/>.</summary>
    private const ulong LayoutSeed = 14695981039346656037UL;
    private const ulong LayoutPrime = 1099511628211UL;

    public FixMessage(int maxMessageSize = FixFramer.DefaultMaxMessageSize, int maxFields = DefaultMaxFields)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxFields, ushort.MaxValue);
        ArgumentOutOfRangeException.ThrowIfNegative(maxMessageSize);
        _maxMessageSize = maxMessageSize;
        _buffer = new byte[(SohBitmap.WordsFor(maxMessageSize) * 64) + SohBitmap.Padding];
        _soh = new ulong[SohBitmap.WordsFor(maxMessageSize)];
        _fields = new Field[maxFields];
        _slots = _tagSlots;
    }

    /// <summary>The first syntax problem of the last <see cref="Parse(ReadOnlySpan{byte})"/>, or <see cref="FixFieldError.None"/>.</summary>
    public FixFieldError Error { get; private set; }

    /// <summary>
    /// The dictionary's verdict on the last message parsed with <see cref="Parse(ReadOnlySpan{byte}, FixDictionary)"/>
    /// (the same value <see cref="FixDictionary.Validate"/> returns); <see cref="FixFieldError.None"/> after a parse
    /// without a dictionary.
    /// </summary>
    public FixFieldError Validation => _validation;

    /// <summary>The whole message as received, 8= through 10=.</summary>
    public ReadOnlySpan<byte> Raw => _buffer.AsSpan(0, _length);

    public int FieldCount => _count;

    /// <summary>The parsed fields in wire order, for validation loops that visit every field (no per-field calls).</summary>
    internal Span<Field> Fields => _fields.AsSpan(0, _count);

    /// <summary>True when the last <see cref="Parse(ReadOnlySpan{byte}, FixDictionary)"/> took the guided path (for tests).</summary>
    internal bool WasGuided { get; private set; }

    /// <summary>A hash of the tag sequence (every field's tag, in order): equal layouts hash equal.</summary>
    internal ulong LayoutHash { get; private set; }

    /// <summary>
    /// The order mappers' memo (<see cref="Mapping.OrderFields.RefuseUnsupportedInstructions"/>): the last
    /// <see cref="LayoutHash"/> found to carry no order instruction the venue refuses, so a connection that repeats a
    /// layout pays one compare for that check. Zero (no layout hashes to it in practice) until a layout is checked.
    /// </summary>
    internal ulong InstructionFreeLayout { get; set; }

    /// <summary>Validation plans of layouts this connection sent before (see <see cref="LayoutPlans"/>); made on first use.</summary>
    internal LayoutPlans Plans => _layoutPlans ??= new LayoutPlans();

    /// <summary>Last-second cache for UTCTimestamp parsing, used by the validator for this message's timestamps.</summary>
    internal ref TimestampCache Timestamps => ref _timestampCache;

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
    /// <remarks>DATA fields are delimited by FIX 4.4's LENGTH fields (<see cref="FixDictionary.Fix44"/>).</remarks>
    public bool Parse(ReadOnlySpan<byte> frame)
    {
        Load(frame);
        IndexFields(FixDictionary.Fix44.DataFields);
        return !Error.IsError;
    }

    /// <summary>
    /// <see cref="Parse(ReadOnlySpan{byte})"/> then <paramref name="dictionary"/>'s validation of the same message,
    /// whose result is <see cref="Validation"/> (and what <see cref="FixDictionary.Validate"/> returns for this
    /// message until the next parse, without validating again). Returns false when either found a problem.
    /// </summary>
    /// <remarks>
    /// A message with the same layout (tags in the same order, same MsgType) as the last one that had a validation
    /// plan is parsed along that plan's <see cref="ParseGuide"/> and gets only the plan's value checks: the same result
    /// as the full parse and walk, for a fraction of the work. Any difference in layout falls back to the full path.
    /// </remarks>
    public bool Parse(ReadOnlySpan<byte> frame, FixDictionary dictionary)
    {
        ArgumentNullException.ThrowIfNull(dictionary);
        LayoutPlan? guided = ParseDeferringGuidedChecks(frame, dictionary);
        if (guided is not null)
        {
            CompleteGuided(guided, dictionary);
        }

        return !_validation.IsError;
    }

    /// <summary>
    /// <see cref="Parse(ReadOnlySpan{byte}, FixDictionary)"/>, except that a message parsed along a plan's guide is
    /// returned with that plan and its value checks not yet run: the caller must then either run them
    /// (<see cref="CompleteGuided"/>) or, having run every one of them itself and found them all passing,
    /// <see cref="AcceptGuided"/>. Until one of the two, <see cref="Validation"/> reads no error though nothing was
    /// checked: the caller must not let the message out before it decides. Null: the message took the full path and
    /// is validated.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal LayoutPlan? ParseDeferringGuidedChecks(ReadOnlySpan<byte> frame, FixDictionary dictionary)
    {
        Load(frame);
        LayoutPlan? guided = _guided;
        WasGuided = guided is not null && ReferenceEquals(guided.Dictionary, dictionary) && TryParseGuided(guided);
        if (WasGuided)
        {
            return guided;
        }

        ParseUnguided(dictionary);
        return null;
    }

    /// <summary>The next message takes the full path (for tests that compare it with the guided and fused paths).</summary>
    internal void ForgetLayout() => _guided = null;

    /// <summary>Runs the value checks of the <paramref name="plan"/> the message was parsed along; their verdict is <see cref="Validation"/>.</summary>
    internal void CompleteGuided(LayoutPlan plan, FixDictionary dictionary)
    {
        _validation = dictionary.CheckPlanned(plan, this);
        MarkValidatedBy(dictionary);
    }

    /// <summary>
    /// Marks a guided message valid without running its plan's checks: only for a caller that has run every one of
    /// them (or a stricter form of each) on this message, and every one passed.
    /// </summary>
    internal void AcceptGuided(FixDictionary dictionary)
    {
        _validation = FixFieldError.None;
        MarkValidatedBy(dictionary);
    }

    /// <summary>Tokenizes and validates the loaded message in full, and keeps its layout's plan to guide the next one.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ParseUnguided(FixDictionary dictionary)
    {
        IndexFields(dictionary.DataFields);
        _validation = dictionary.ValidateFields(this, out LayoutPlan? plan);
        MarkValidatedBy(dictionary);
        if (plan is not null)
        {
            if (!plan.Guide.IsReady && !plan.Guide.IsUnguidable)
            {
                plan.Guide.Prepare(this, dictionary.DataFields);
            }

            _guided = plan.Guide.IsReady ? plan : null;
        }
    }

    /// <summary>Copies <paramref name="frame"/>, marks its SOHs and clears the previous message's state.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Load(ReadOnlySpan<byte> frame)
    {
        if (frame.Length > _maxMessageSize)
        {
            throw new ArgumentException("Frame is longer than this message's buffer; size both from the same maximum.", nameof(frame));
        }

        _length = frame.Length;
        _count = 0;
        _msgTypeIndex = -1;
        _isValidated = false;
        _validation = FixFieldError.None;
        MsgTypeKind = FixMsgType.Other;
        Error = FixFieldError.None;

        // One pass copies the frame and marks its SOHs (reading the source, not the just-written copy, so no load
        // waits for the copy's stores).
        SohBitmap.CopyAndBuild(frame, _buffer, _soh);
    }

    /// <summary>
    /// Tokenizes the loaded message: every field's tag, value position and repeat mark, the tag table, the layout
    /// hash. Fields end at SOH bits, except a DATA field, whose value is the byte count its LENGTH field gives and may
    /// hold SOHs (see <see cref="ReadDataField"/>); a last field without SOH (not a valid frame, but Parse takes any
    /// span) runs to the end.
    /// </summary>
    private void IndexFields(DataFieldPairs dataFields)
    {
        _dataFields = dataFields;
        NextGeneration();
        _msgTypeIndex = -1;
        _slots = _tagSlots;
        _slotGeneration = _generation;
        int pos = 0;
        int count = 0;
        ulong layout = LayoutSeed;
        int words = SohBitmap.WordsFor(_length);
        ulong[] soh = _soh;
        for (int w = 0; w < words && w < soh.Length; w++)
        {
            ulong bits = soh[w];
            while (bits != 0)
            {
                int end = (w * 64) + BitOperations.TrailingZeroCount(bits);
                bits &= bits - 1;
                count = ParseField(pos, end, count, ref layout, out int tag);
                pos = end + 1;

                // The only work DATA fields add to other fields: one bit test.
                if (dataFields.IsMarked(tag))
                {
                    int next = ReadDataField(dataFields, tag, pos, ref count, ref layout);
                    if (next != pos)
                    {
                        // The DATA value was taken by its count: resume the SOH walk after its SOH, which skips any
                        // SOH inside the value (this word's and any later word's).
                        pos = next;
                        w = pos >> 6;
                        bits = w < words ? soh[w] & (ulong.MaxValue << (pos & 63)) : 0;
                    }
                }
            }
        }

        if (pos < _length)
        {
            count = ParseField(pos, _length, count, ref layout, out int tag);
            if (dataFields.IsMarked(tag))
            {
                ReadDataField(dataFields, tag, _length, ref count, ref layout);
            }
        }

        _count = count;
        LayoutHash = layout;
        if (_msgTypeIndex >= 0)
        {
            MsgTypeKind = FixMsgTypes.FromWire(MsgType);
        }
    }

    /// <summary>The cached verdict when this message was last validated by <paramref name="dictionary"/>.</summary>
    internal bool TryGetValidation(FixDictionary dictionary, out FixFieldError error)
    {
        error = _validation;
        return _isValidated && ReferenceEquals(_validatedBy, dictionary);
    }

    internal void SetValidation(FixDictionary dictionary, FixFieldError error)
    {
        _validation = error;
        MarkValidatedBy(dictionary);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void MarkValidatedBy(FixDictionary dictionary)
    {
        if (!ReferenceEquals(_validatedBy, dictionary))
        {
            _validatedBy = dictionary;
        }

        _isValidated = true;
    }

    /// <summary>Index of the first field with <paramref name="tag"/>, or -1.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int IndexOf(int tag)
    {
        if ((uint)tag < TagTableSize)
        {
            // Safe: tag < TagTableSize, the table's length.
            uint slot = Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_slots), tag);
            return (slot >> GenerationShift) == _slotGeneration ? (int)(slot & 0xFFFF) : -1;
        }

        return IndexOfHighTag(tag);
    }

    public bool Has(int tag) => IndexOf(tag) >= 0;

    public int TagAt(int index) => _fields[index].Tag;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
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
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReadOnlySpan<byte> GetSpan(int tag)
    {
        int index = IndexOf(tag);
        return index < 0 ? default : ValueAt(index);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryGetSpan(int tag, out ReadOnlySpan<byte> value)
    {
        int index = IndexOf(tag);
        value = index < 0 ? default : ValueAt(index);
        return index >= 0;
    }

    // The typed readers below are inlined into their callers (the session header, the order mappers): their common
    // cases are a missing field and a value validation already parsed, one load each. Parsing the bytes (a field
    // validation did not check) is out of line, so inlining a reader adds only those. The venue's JIT has no
    // profile to make these decisions itself (tiered compilation is off).

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public FieldStatus ReadInt(int tag, out int value)
    {
        FieldStatus status = ReadLong(tag, out long wide);
        if (status == FieldStatus.Ok && (wide > int.MaxValue || wide < int.MinValue))
        {
            status = FieldStatus.OutOfRange;
        }

        value = status == FieldStatus.Ok ? (int)wide : 0;
        return status;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public FieldStatus ReadLong(int tag, out long value)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            value = 0;
            return FieldStatus.Missing;
        }

        ref readonly Field field = ref _fields[index];
        if (field.Kind == FieldValueKind.Integer)
        {
            value = field.Value;
            return FieldStatus.Ok;
        }

        return ParseLong(index, out value);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public FieldStatus ReadChar(int tag, out byte value)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            value = 0;
            return FieldStatus.Missing;
        }

        ref readonly Field field = ref _fields[index];
        if (field.Kind == FieldValueKind.Char)
        {
            value = (byte)field.Value;
            return FieldStatus.Ok;
        }

        return ParseChar(index, out value);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public FieldStatus ReadBool(int tag, out bool value)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            value = false;
            return FieldStatus.Missing;
        }

        ref readonly Field field = ref _fields[index];
        if (field.Kind == FieldValueKind.Boolean)
        {
            value = field.Value != 0;
            return FieldStatus.Ok;
        }

        return ParseBool(index, out value);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public FieldStatus ReadTimestamp(int tag, out long unixNanos)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            unixNanos = 0;
            return FieldStatus.Missing;
        }

        ref readonly Field field = ref _fields[index];
        if (field.Kind == FieldValueKind.Timestamp)
        {
            unixNanos = field.Value;
            return FieldStatus.Ok;
        }

        return ParseTimestamp(index, out unixNanos);
    }

    /// <summary>Reads a decimal as a long count of 10^-<paramref name="decimals"/> units, exactly (see <see cref="FixPrice"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public FieldStatus ReadPrice(int tag, int decimals, out long units)
    {
        int index = IndexOf(tag);
        if (index < 0)
        {
            units = 0;
            return FieldStatus.Missing;
        }

        ref readonly Field field = ref _fields[index];
        if (field.Kind == FieldValueKind.Decimal)
        {
            if (field.Scale == decimals)
            {
                // Written at exactly the wanted precision (a quantity "100", a price "143.4200"): nothing to scale.
                units = field.Value;
                return FieldStatus.Ok;
            }

            return FixPrice.Rescale(field.Value, field.Scale, decimals, out units);
        }

        return ParsePrice(index, decimals, out units);
    }

    public bool TryGetInt(int tag, out int value) => ReadInt(tag, out value) == FieldStatus.Ok;

    public bool TryGetLong(int tag, out long value) => ReadLong(tag, out value) == FieldStatus.Ok;

    public bool TryGetChar(int tag, out byte value) => ReadChar(tag, out value) == FieldStatus.Ok;

    public bool TryGetBool(int tag, out bool value) => ReadBool(tag, out value) == FieldStatus.Ok;

    public bool TryGetTimestamp(int tag, out long unixNanos) => ReadTimestamp(tag, out unixNanos) == FieldStatus.Ok;

    public bool TryGetPrice(int tag, int decimals, out long units) => ReadPrice(tag, decimals, out units) == FieldStatus.Ok;

    // Out-of-line halves of the typed readers: a value validation did not parse, read from its bytes.

    [MethodImpl(MethodImplOptions.NoInlining)]
    private FieldStatus ParseLong(int index, out long value) =>
        FixInt.TryParse(ValueAt(index), out value);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private FieldStatus ParseChar(int index, out byte value) =>
        FixChar.TryParse(ValueAt(index), out value);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private FieldStatus ParseBool(int index, out bool value) =>
        FixBool.TryParse(ValueAt(index), out value);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private FieldStatus ParseTimestamp(int index, out long unixNanos) =>
        FixTimestamp.TryParse(ValueAt(index), out unixNanos);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private FieldStatus ParsePrice(int index, int decimals, out long units) =>
        FixPrice.TryParse(ValueAt(index), decimals, out units);

    private int IndexOfHighTag(int tag) => IndexOfHighTag(tag, _count);

    private int IndexOfHighTag(int tag, int count)
    {
        for (int i = 0; i < count; i++)
        {
            if (_fields[i].Tag == tag)
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>
    /// Indexes the field in _buffer[start..end) (end is its SOH or the message end) as field number
    /// <paramref name="count"/>; returns the new field count. Mixes the tag into <paramref name="layout"/>.
    /// <paramref name="recordedTag"/> is the field's tag, or 0 when no field was recorded.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int ParseField(int start, int end, int count, ref ulong layout, out int recordedTag)
    {
        // Safe: 0 <= start <= end <= _length <= _buffer.Length (end comes from the SOH bitmap, which is masked to
        // _length), and every read below is at an index in [start, end).
        ref byte data = ref MemoryMarshal.GetArrayDataReference(_buffer);
        int tag;
        int pos;

        // Tags of 1..3 digits (all the session and order fields) unrolled; anything else takes the general loop.
        // Safe: bytes up to start + 3 are inside _buffer (start < _length, and _buffer has SohBitmap.Padding bytes
        // past any message); the '=' found must still lie before end.
        uint d0 = (uint)(Unsafe.Add(ref data, start) - '1');
        uint d1 = (uint)(Unsafe.Add(ref data, start + 1) - '0');
        uint d2 = (uint)(Unsafe.Add(ref data, start + 2) - '0');
        if (d0 <= 8 && d1 == '=' - '0' && start + 1 < end)
        {
            tag = (int)d0 + 1;
            pos = start + 1;
        }
        else if (d0 <= 8 && d1 <= 9 && d2 == '=' - '0' && start + 2 < end)
        {
            tag = (((int)d0 + 1) * 10) + (int)d1;
            pos = start + 2;
        }
        else if (d0 <= 8 && d1 <= 9 && d2 <= 9 && Unsafe.Add(ref data, start + 3) == (byte)'=' && start + 3 < end)
        {
            tag = (((int)d0 + 1) * 100) + ((int)d1 * 10) + (int)d2;
            pos = start + 3;
        }
        else
        {
            tag = ParseTagSlow(start, end, out pos);
        }

        if (tag <= 0)
        {
            SetBadTagError(start, end, count);
            recordedTag = 0;
            return count;
        }

        int valueStart = pos + 1;
        if (valueStart == end)
        {
            SetError(tag, SessionRejectReason.TagSpecifiedWithoutValue);
        }

        return AddField(tag, start, valueStart, end, count, ref layout, out recordedTag);
    }

    /// <summary>
    /// Records field number <paramref name="count"/>: <paramref name="tag"/>, "tag=" at <paramref name="start"/>, value
    /// in _buffer[valueStart..end); stamps the tag table, marks a repeat, mixes the tag into <paramref name="layout"/>.
    /// Returns the new field count; <paramref name="recordedTag"/> is 0 when the field table is full.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int AddField(int tag, int start, int valueStart, int end, int count, ref ulong layout, out int recordedTag)
    {
        Field[] fields = _fields;
        if ((uint)count >= (uint)fields.Length)
        {
            SetError(tag, SessionRejectReason.Other);
            recordedTag = 0;
            return count;
        }

        bool repeat;
        if ((uint)tag < TagTableSize)
        {
            // Safe: tag < TagTableSize, the table's length.
            ref uint slot = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_tagSlots), tag);
            repeat = (slot >> GenerationShift) == _generation;
            if (!repeat)
            {
                slot = (_generation << GenerationShift) | (uint)count;
            }
        }
        else
        {
            repeat = IndexOfHighTag(tag, count) >= 0;
        }

        if (tag == FixTags.MsgType && !repeat)
        {
            _msgTypeIndex = count;
        }

        layout = (layout ^ (uint)tag) * LayoutPrime;
        ref Field field = ref fields[count];
        field.Tag = tag;
        field.Start = start;
        field.Offset = valueStart;
        field.Length = end - valueStart;
        field.IsRepeat = repeat;
        field.Kind = FieldValueKind.None;
        recordedTag = tag;
        return count + 1;
    }

    /// <summary>
    /// The tag of the field at <paramref name="start"/> byte by byte, and the position of its '=' in
    /// <paramref name="equals"/>; 0 when the tag is empty, not digits, has a leading zero, has no '=' before
    /// <paramref name="end"/> or exceeds 999,999,999.
    /// </summary>
    private int ParseTagSlow(int start, int end, out int equals)
    {
        // Safe: every read is at an index in [start, end), and end <= _length <= _buffer.Length.
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

        equals = pos;
        return tag <= 0 || pos == start || pos >= end || Unsafe.Add(ref data, start) == (byte)'0' ? 0 : tag;
    }

    /// <summary>
    /// The error of a field in _buffer[start..end) without a valid tag. Text that has no '=' and is not a bare number (a
    /// tag that lost its '=') is the rest of the field before it, whose value an SOH cut (FIX 4.4 SessionRejectReason
    /// 17, naming that field), unless that is a DATA field, where an SOH is allowed and its count is what was wrong
    /// (<see cref="ReadDataField"/>); anything else is an invalid tag number. Off the valid path.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void SetBadTagError(int start, int end, int count)
    {
        ReadOnlySpan<byte> text = _buffer.AsSpan(start, end - start);
        if (count > 0 && !text.Contains((byte)'=') && text.ContainsAnyExceptInRange((byte)'0', (byte)'9') &&
            !_dataFields.IsMarked(_fields[count - 1].Tag))
        {
            SetError(_fields[count - 1].Tag, SessionRejectReason.NonDataValueIncludesFieldDelimiter);
            return;
        }

        SetError(0, SessionRejectReason.InvalidTagNumber);
    }

    private void SetError(int tag, SessionRejectReason reason)
    {
        if (!Error.IsError)
        {
            Error = FixFieldError.Of(tag, reason);
        }
    }

    /// <summary>A new stamp makes every tag slot stale in O(1); when the 16-bit generation wraps the table is cleared once.</summary>
    private void NextGeneration()
    {
        if (++_generation > 0xFFFF)
        {
            Array.Clear(_tagSlots);
            _generation = 1;
        }
    }

    /// <summary>What <see cref="Field.Value"/> holds: nothing yet, or the value validation already parsed.</summary>
    internal enum FieldValueKind : byte
    {
        None = 0,
        Integer,
        Char,
        Boolean,
        Timestamp,

        /// <summary>Value holds every digit as an integer, Scale the count of digits after the point (see FixPrice.Rescale).</summary>
        Decimal,
    }

    /// <summary>
    /// One parsed field: value at Raw[Offset..Offset+Length), "tag=" at Raw[Start]; after validation, its typed value.
    /// </summary>
    internal struct Field
    {
        public int Tag;
        public int Start;
        public int Offset;
        public int Length;
        public bool IsRepeat;
        public FieldValueKind Kind;
        public byte Scale;
        public long Value;
    }
}
