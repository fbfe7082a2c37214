using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Dictionary;

/// <summary>
/// FIX 4.4 validation tables generated from the embedded FIX44.xml (QuickFIX format; see shared/data/fix/README.md
/// for its licence acknowledgment). Loaded once (<see cref="Fix44"/>), immutable afterwards, safe to share between
/// connections. <see cref="Validate"/> allocates nothing.
/// </summary>
public sealed class FixDictionary
{
    private const string ResourceName = "Exchange.Fix.Dictionary.FIX44.xml";

    private static readonly Lazy<FixDictionary> Shared = new(LoadEmbedded);

    private readonly FieldDefinition?[] _fields;

    /// <summary>Per tag: the field's single-byte enum values below 64 / 64..127 as bits (0 when it has none of them).</summary>
    private readonly ulong[] _singleByteEnumLow;
    private readonly ulong[] _singleByteEnumHigh;
    private readonly MessageDefinition?[] _singleCharTypes = new MessageDefinition?[128];
    private readonly MessageDefinition[] _otherTypes;

    internal FixDictionary(FieldDefinition?[] fields, IReadOnlyList<MessageDefinition> messages, DataFieldPairs dataFields)
    {
        _fields = fields;
        DataFields = dataFields;
        _singleByteEnumLow = new ulong[fields.Length];
        _singleByteEnumHigh = new ulong[fields.Length];
        foreach (FieldDefinition? field in fields)
        {
            if (field is not null)
            {
                _singleByteEnumLow[field.Tag] = field.SingleByteLow;
                _singleByteEnumHigh[field.Tag] = field.SingleByteHigh;
            }
        }

        var others = new List<MessageDefinition>();
        foreach (MessageDefinition message in messages)
        {
            message.AttachFieldTypes(fields);
            if (message.MsgType.Length == 1 && message.MsgType[0] < 128)
            {
                _singleCharTypes[message.MsgType[0]] = message;
            }
            else
            {
                others.Add(message);
            }
        }

        _otherTypes = [.. others];
    }

    /// <summary>The FIX 4.4 dictionary, parsed from the assembly's embedded copy on first use.</summary>
    public static FixDictionary Fix44 => Shared.Value;

    /// <summary>Which LENGTH field counts which DATA field: the tokenizer reads a DATA value by that count, not up to SOH.</summary>
    internal DataFieldPairs DataFields { get; }

    /// <summary>True when the dictionary defines this MsgType (35) value.</summary>
    public bool IsDefinedMsgType(ReadOnlySpan<byte> msgType) => Find(msgType) is not null;

    /// <summary>True for session-level (admin) message types: 0,1,2,3,4,5,A (and n).</summary>
    public bool IsAdminMsgType(ReadOnlySpan<byte> msgType) => Find(msgType)?.IsAdmin ?? false;

    /// <summary>
    /// Checks a parsed message against the dictionary and returns the first problem, in wire order: the parser's own
    /// error, unknown MsgType (11), 8/9/35 not first or repeated later (14), undefined tag (0), tag not allowed in
    /// this type (2), header tag after the body or any field after the trailer (14), repeated tag outside a repeating group
    /// (13), repeating-group member before its instance's delimiter, out of dictionary order or with no NumInGroup
    /// before it (15, RefTagID = that member), malformed value (6), value not in the enum or out of range (5),
    /// NumInGroup value other than the instances that follow (16, RefTagID = the NumInGroup tag, reported where the
    /// group ends), a required member missing from a group instance (1, RefTagID = that member, reported where the
    /// instance ends); then the first missing required tag of the message (1).
    /// </summary>
    /// <remarks>
    /// A message parsed with <see cref="FixMessage.Parse(ReadOnlySpan{byte}, FixDictionary)"/> was validated in that
    /// call; its verdict is returned without a second walk. The typed values checked here are kept in the message
    /// for its readers.
    /// </remarks>
    public FixFieldError Validate(FixMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        if (message.TryGetValidation(this, out FixFieldError cached))
        {
            return cached;
        }

        FixFieldError error = ValidateFields(message);
        message.SetValidation(this, error);
        return error;
    }

    /// <summary>
    /// Validates the parsed fields (see <see cref="Validate"/>); each checked value is stored in its field. A layout
    /// seen clean before (same MsgType, same tags in the same order) runs only its value checks from the message's
    /// <see cref="LayoutPlans"/>; any other walks every rule and, when clean, becomes a plan.
    /// </summary>
    internal FixFieldError ValidateFields(FixMessage message) => ValidateFields(message, out _);

    /// <inheritdoc cref="ValidateFields(FixMessage)"/>
    /// <param name="plan">The plan of the message's layout when it has one (found, or recorded by this clean walk), else null.</param>
    internal FixFieldError ValidateFields(FixMessage message, out LayoutPlan? plan)
    {
        plan = null;
        if (message.Error.IsError)
        {
            return message.Error;
        }

        MessageDefinition? definition = Find(message.MsgType);
        if (definition is null)
        {
            return FixFieldError.Of(FixTags.MsgType, SessionRejectReason.InvalidMsgType);
        }

        Span<FixMessage.Field> fields = message.Fields;
        if (fields.Length > LayoutPlans.MaxFields)
        {
            return WalkFields(message, definition, [], out _);
        }

        LayoutPlans plans = message.Plans;
        plan = plans.Find(this, definition, message.LayoutHash, fields.Length);
        if (plan is not null && SameTags(plan, fields))
        {
            return CheckPlanned(plan, message);
        }

        FixFieldError error = WalkFields(message, definition, plans.Closes, out int closeCount);
        plan = null;
        if (!error.IsError)
        {
            plan = plans.Take();
            Record(plan, definition, message.LayoutHash, fields, plans.Closes.AsSpan(0, closeCount));
        }

        return error;
    }

    /// <summary>
    /// Everything a clean layout still needs checked, for a message whose tags are known to be exactly
    /// <paramref name="plan"/>'s (a guided parse): its value checks in wire order, with the NumInGroup counts.
    /// </summary>
    internal FixFieldError CheckPlanned(LayoutPlan plan, FixMessage message)
    {
        Span<FixMessage.Field> fields = message.Fields;
        ReadOnlySpan<byte> raw = message.Raw;
        ReadOnlySpan<ValueCheck> checks = plan.Checks.AsSpan(0, plan.CheckCount);
        if (plan.GroupCheckCount != 0)
        {
            return CheckValuesAndCounts(checks, plan.GroupChecks.AsSpan(0, plan.GroupCheckCount), fields, raw, ref message.Timestamps);
        }

        if (!plan.HasGeneralChecks && PassesByKind(plan, fields, raw, ref message.Timestamps))
        {
            return FixFieldError.None;
        }

        // Safe: a plan is applied only to a message with exactly its fields, and its checks index those fields.
        ref FixMessage.Field first = ref MemoryMarshal.GetReference(fields);
        ref byte rawStart = ref MemoryMarshal.GetReference(raw);
        ref TimestampCache timestamps = ref message.Timestamps;
        foreach (ref readonly ValueCheck check in checks)
        {
            if (!PlannedCheck.Passes(check, ref Unsafe.Add(ref first, check.FieldIndex), ref rawStart, ref timestamps) &&
                !CheckValue(check, fields, raw, ref timestamps, out FixFieldError error))
            {
                return error;
            }
        }

        return FixFieldError.None;
    }

    /// <summary>
    /// The plan's lean checks one kind at a time (<see cref="LayoutPlan.ChecksByKind"/>): true when every value passes.
    /// Each check writes only its own field, so the order does not change what is stored; false decides nothing (the
    /// caller then runs the checks in wire order, which finds the first error as the walk does).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool PassesByKind(LayoutPlan plan, Span<FixMessage.Field> fields, ReadOnlySpan<byte> raw, ref TimestampCache timestamps)
    {
        // Safe: a plan is applied only to a message with exactly its fields, and its checks index those fields.
        ref FixMessage.Field first = ref MemoryMarshal.GetReference(fields);
        ref byte rawStart = ref MemoryMarshal.GetReference(raw);
        ReadOnlySpan<ValueCheck> checks = plan.ChecksByKind.AsSpan(0, plan.TimestampEnd);
        int i = 0;
        for (; i < plan.CharEnumEnd; i++)
        {
            if (!PlannedCheck.PassesCharEnum(checks[i], ref Unsafe.Add(ref first, checks[i].FieldIndex), ref rawStart))
            {
                return false;
            }
        }

        for (; i < plan.IntEnd; i++)
        {
            if (!PlannedCheck.PassesInt(ref Unsafe.Add(ref first, checks[i].FieldIndex), ref rawStart))
            {
                return false;
            }
        }

        for (; i < plan.DecimalEnd; i++)
        {
            if (!PlannedCheck.PassesDecimal(ref Unsafe.Add(ref first, checks[i].FieldIndex), ref rawStart))
            {
                return false;
            }
        }

        for (; i < checks.Length; i++)
        {
            if (!PlannedCheck.PassesTimestamp(ref Unsafe.Add(ref first, checks[i].FieldIndex), ref rawStart, ref timestamps))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>False when a message's tags differ from the plan's after all (a layout-hash collision).</summary>
    private static bool SameTags(LayoutPlan plan, Span<FixMessage.Field> fields)
    {
        int[] tags = plan.Tags;
        for (int i = 0; i < fields.Length; i++)
        {
            if ((uint)i >= (uint)tags.Length || fields[i].Tag != tags[i])
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// A plan's value checks with its NumInGroup count checks merged in at the points where the walk closed each group
    /// (before the value check of the closing field), so the first error is the walk's.
    /// </summary>
    private FixFieldError CheckValuesAndCounts(
        ReadOnlySpan<ValueCheck> checks, ReadOnlySpan<GroupClose> counts, Span<FixMessage.Field> fields, ReadOnlySpan<byte> raw, ref TimestampCache timestamps)
    {
        ref byte rawStart = ref MemoryMarshal.GetReference(raw);
        int next = 0;
        foreach (ref readonly ValueCheck check in checks)
        {
            for (; next < counts.Length && counts[next].AtIndex <= check.FieldIndex; next++)
            {
                if (fields[counts[next].CountIndex].Value != counts[next].Instances)
                {
                    return FixFieldError.Of(fields[counts[next].CountIndex].Tag, SessionRejectReason.IncorrectNumInGroupCount);
                }
            }

            if (!PlannedCheck.Passes(check, ref fields[check.FieldIndex], ref rawStart, ref timestamps) &&
                !CheckValue(check, fields, raw, ref timestamps, out FixFieldError error))
            {
                return error;
            }
        }

        for (; next < counts.Length; next++)
        {
            if (fields[counts[next].CountIndex].Value != counts[next].Instances)
            {
                return FixFieldError.Of(fields[counts[next].CountIndex].Tag, SessionRejectReason.IncorrectNumInGroupCount);
            }
        }

        return FixFieldError.None;
    }

    /// <summary>
    /// The general form of one planned value check, run where <see cref="PlannedCheck.Passes"/> did not pass the value;
    /// false with <paramref name="error"/> set when the value fails it.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool CheckValue(in ValueCheck check, Span<FixMessage.Field> fields, ReadOnlySpan<byte> raw, ref TimestampCache timestamps, out FixFieldError error)
    {
        ref FixMessage.Field field = ref fields[check.FieldIndex];
        ReadOnlySpan<byte> value = raw.Slice(field.Offset, field.Length);
        if (check.Type != FixFieldType.Text)
        {
            FieldStatus status = CheckValue(check.Type, value, ref field, ref timestamps);
            if (status != FieldStatus.Ok)
            {
                error = FixFieldError.FromStatus(field.Tag, status);
                return false;
            }
        }

        if (check.HasEnum && !IsAllowedValue(check, field.Tag, value))
        {
            error = FixFieldError.Of(field.Tag, SessionRejectReason.ValueIsIncorrect);
            return false;
        }

        error = FixFieldError.None;
        return true;
    }

    /// <summary>Stores a clean layout's tags, value checks and the NumInGroup counts its groups had in <paramref name="plan"/>.</summary>
    private void Record(LayoutPlan plan, MessageDefinition definition, ulong hash, Span<FixMessage.Field> fields, ReadOnlySpan<GroupClose> closes)
    {
        closes.CopyTo(plan.GroupChecks);
        ushort[] rules = definition.Rules;
        int checkCount = 0;
        for (int i = 0; i < fields.Length; i++)
        {
            int tag = fields[i].Tag;
            int rule = (uint)tag < (uint)rules.Length ? rules[tag] : 0;
            var type = (FixFieldType)((rule >> 8) & MessageDefinition.TypeMask);
            bool hasEnum = (rule & MessageDefinition.HasEnumBit) != 0;
            plan.Tags[i] = tag;

            // MsgType is not checked again: the plan belongs to the definition found by this very value.
            if ((type != FixFieldType.Text || hasEnum) && tag != FixTags.MsgType)
            {
                plan.Checks[checkCount++] = new ValueCheck
                {
                    FieldIndex = i,
                    Type = type,
                    HasEnum = hasEnum,
                    Kind = PlannedCheck.KindOf(type, hasEnum),
                    EnumLow = hasEnum ? _singleByteEnumLow[tag] : 0,
                    EnumHigh = hasEnum ? _singleByteEnumHigh[tag] : 0,
                };
            }
        }

        plan.Reset(this, definition, hash, fields.Length, checkCount, closes.Length);
    }

    /// <summary>
    /// Every rule, field by field in wire order, then the required tags. The repeating-group state runs only for
    /// fields that are group members or NumInGroup and while a group is open, so layouts without groups pay one flag
    /// test per field. Each group closed is written to <paramref name="closes"/> (as room allows) for a plan.
    /// </summary>
    private FixFieldError WalkFields(FixMessage message, MessageDefinition definition, Span<GroupClose> closes, out int closeCount)
    {
        closeCount = 0;
        var groups = default(GroupWalker);
        Span<FixMessage.Field> fields = message.Fields;
        ReadOnlySpan<byte> raw = message.Raw;
        ref TimestampCache timestamps = ref message.Timestamps;
        bool bodySeen = false;
        bool trailerSeen = false;
        int requiredSeen = 0;
        ushort[] rules = definition.Rules;
        for (int i = 0; i < fields.Length; i++)
        {
            ref FixMessage.Field field = ref fields[i];
            int tag = field.Tag;
            if (i < 3 ? tag != StandardPrefixTag(i) : tag is FixTags.BeginString or FixTags.BodyLength or FixTags.MsgType)
            {
                return FixFieldError.Of(tag, SessionRejectReason.TagSpecifiedOutOfRequiredOrder);
            }

            int rule = (uint)tag < (uint)rules.Length ? rules[tag] : 0;
            var flags = (FieldFlags)(byte)rule;
            if ((flags & FieldFlags.Allowed) == 0)
            {
                return FixFieldError.Of(
                    tag, FieldOf(tag) is null ? SessionRejectReason.InvalidTagNumber : SessionRejectReason.TagNotDefinedForMessageType);
            }

            if ((flags & FieldFlags.Trailer) != 0)
            {
                trailerSeen = true;
            }
            else if (trailerSeen || ((flags & FieldFlags.Header) != 0 && bodySeen))
            {
                return FixFieldError.Of(tag, SessionRejectReason.TagSpecifiedOutOfRequiredOrder);
            }
            else if ((flags & FieldFlags.Header) == 0)
            {
                bodySeen = true;
            }

            if (field.IsRepeat)
            {
                if ((flags & FieldFlags.GroupMember) == 0)
                {
                    return FixFieldError.Of(tag, SessionRejectReason.TagAppearsMoreThanOnce);
                }
            }
            else if ((flags & FieldFlags.Required) != 0)
            {
                requiredSeen++;
            }

            if (groups.Depth != 0 || (flags & (FieldFlags.GroupMember | FieldFlags.GroupCount)) != 0)
            {
                FixFieldError groupError = groups.Visit(definition, fields, i, flags, closes, ref closeCount);
                if (groupError.IsError)
                {
                    return groupError;
                }
            }

            var type = (FixFieldType)((rule >> 8) & MessageDefinition.TypeMask);
            bool hasEnum = (rule & MessageDefinition.HasEnumBit) != 0;
            if (type == FixFieldType.Text && !hasEnum)
            {
                continue;
            }

            ReadOnlySpan<byte> value = raw.Slice(field.Offset, field.Length);
            FieldStatus status = CheckValue(type, value, ref field, ref timestamps);
            if (status != FieldStatus.Ok)
            {
                return FixFieldError.FromStatus(tag, status);
            }

            if (hasEnum && !IsAllowedValue(tag, value))
            {
                return FixFieldError.Of(tag, SessionRejectReason.ValueIsIncorrect);
            }
        }

        FixFieldError unclosed = groups.Finish(fields, closes, ref closeCount);
        if (unclosed.IsError)
        {
            return unclosed;
        }

        if (requiredSeen == definition.RequiredTags.Length)
        {
            return FixFieldError.None;
        }

        foreach (int tag in definition.RequiredTags)
        {
            if (!message.Has(tag))
            {
                return FixFieldError.Of(tag, SessionRejectReason.RequiredTagMissing);
            }
        }

        return FixFieldError.None;
    }

    internal FieldDefinition? FieldOf(int tag) => (uint)tag < (uint)_fields.Length ? _fields[tag] : null;

    internal MessageDefinition? Find(ReadOnlySpan<byte> msgType)
    {
        if (msgType.Length == 1)
        {
            return msgType[0] < 128 ? _singleCharTypes[msgType[0]] : null;
        }

        foreach (MessageDefinition definition in _otherTypes)
        {
            if (msgType.Length == definition.MsgType.Length && AsciiEquals(msgType, definition.MsgType))
            {
                return definition;
            }
        }

        return null;
    }

    private static bool AsciiEquals(ReadOnlySpan<byte> bytes, string text)
    {
        for (int i = 0; i < bytes.Length; i++)
        {
            if (bytes[i] != text[i])
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>BeginString, BodyLength, MsgType: the fields FIX fixes to the first three positions.</summary>
    private static int StandardPrefixTag(int position) => position switch
    {
        0 => FixTags.BeginString,
        1 => FixTags.BodyLength,
        _ => FixTags.MsgType,
    };

    /// <summary>Single-byte values (most enums: Side, OrdType, TimeInForce...) by two bit tests; others by the field's list.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool IsAllowedValue(int tag, ReadOnlySpan<byte> value) =>
        value.Length == 1 ? IsSingleByteEnum(value[0], _singleByteEnumLow[tag], _singleByteEnumHigh[tag]) : _fields[tag]!.IsAllowedValue(value);

    /// <summary><see cref="IsAllowedValue(int, ReadOnlySpan{byte})"/> with the field's masks taken from the plan.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool IsAllowedValue(in ValueCheck check, int tag, ReadOnlySpan<byte> value) =>
        value.Length == 1 ? IsSingleByteEnum(value[0], check.EnumLow, check.EnumHigh) : _fields[tag]!.IsAllowedValue(value);

    /// <summary>A shift count is taken mod 64, so 1UL &lt;&lt; b is bit b - 64 for 64..127, as the high mask stores it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool IsSingleByteEnum(byte b, ulong low, ulong high)
    {
        ulong mask = b < 64 ? low : b < 128 ? high : 0;
        return (mask & (1UL << b)) != 0;
    }

    /// <summary>Checks <paramref name="value"/>'s syntax for <paramref name="type"/> and keeps the parsed value in <paramref name="field"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static FieldStatus CheckValue(FixFieldType type, ReadOnlySpan<byte> value, ref FixMessage.Field field, ref TimestampCache timestamps)
    {
        FieldStatus status;
        switch (type)
        {
            case FixFieldType.Int:
                status = FixInt.TryParse(value, out field.Value);
                field.Kind = FixMessage.FieldValueKind.Integer;
                break;
            case FixFieldType.Decimal:
                FixPrice.DigitsResult digits = FixPrice.TryParseDigits(value, out field.Value, out int scale);
                if (digits == FixPrice.DigitsResult.Malformed)
                {
                    return FieldStatus.Malformed;
                }

                if (digits == FixPrice.DigitsResult.Ok)
                {
                    field.Scale = (byte)scale;
                    field.Kind = FixMessage.FieldValueKind.Decimal;
                }

                return FieldStatus.Ok;
            case FixFieldType.Char:
                status = FixChar.TryParse(value, out byte c);
                field.Value = c;
                field.Kind = FixMessage.FieldValueKind.Char;
                break;
            case FixFieldType.Boolean:
                status = FixBool.TryParse(value, out bool b);
                field.Value = b ? 1 : 0;
                field.Kind = FixMessage.FieldValueKind.Boolean;
                break;
            case FixFieldType.UtcTimestamp:
                status = FixTimestamp.TryParse(value, ref timestamps, out field.Value);
                field.Kind = FixMessage.FieldValueKind.Timestamp;
                break;
            case FixFieldType.Date:
                return FixTimestamp.TryParseDate(value, out _);
            default:
                return FieldStatus.Ok;
        }

        if (status != FieldStatus.Ok)
        {
            field.Kind = FixMessage.FieldValueKind.None;
        }

        return status;
    }

    private static FixDictionary LoadEmbedded()
    {
        using Stream stream = typeof(FixDictionary).Assembly.GetManifestResourceStream(ResourceName)
            ?? throw new InvalidOperationException($"Embedded resource {ResourceName} is missing from the build.");
        return FixDictionaryLoader.Load(stream);
    }
}
