using System.Runtime.CompilerServices;
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

    /// <summary>BeginString, BodyLength, MsgType: the fields FIX fixes to the first three positions.</summary>
    private static readonly int[] StandardPrefix = [FixTags.BeginString, FixTags.BodyLength, FixTags.MsgType];

    private static readonly Lazy<FixDictionary> Shared = new(LoadEmbedded);

    private readonly FieldDefinition?[] _fields;
    private readonly MessageDefinition?[] _singleCharTypes = new MessageDefinition?[128];
    private readonly MessageDefinition[] _otherTypes;

    internal FixDictionary(FieldDefinition?[] fields, IReadOnlyList<MessageDefinition> messages)
    {
        _fields = fields;
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

    /// <summary>True when the dictionary defines this MsgType (35) value.</summary>
    public bool IsDefinedMsgType(ReadOnlySpan<byte> msgType) => Find(msgType) is not null;

    /// <summary>True for session-level (admin) message types: 0,1,2,3,4,5,A (and n).</summary>
    public bool IsAdminMsgType(ReadOnlySpan<byte> msgType) => Find(msgType)?.IsAdmin ?? false;

    /// <summary>
    /// Checks a parsed message against the dictionary and returns the first problem, in wire order: the parser's own
    /// error, unknown MsgType (11), 8/9/35 not first or repeated later (14), undefined tag (0), tag not allowed in
    /// this type (2), header tag after the body or any field after the trailer (14), repeated tag outside a repeating group (13), malformed value (6), value not in the enum or out of range
    /// (5); then the first missing required tag (1). Repeating-group counts and member order are not checked.
    /// </summary>
    public FixFieldError Validate(FixMessage message)
    {
        if (message.Error.IsError)
        {
            return message.Error;
        }

        MessageDefinition? definition = Find(message.MsgType);
        if (definition is null)
        {
            return FixFieldError.Of(FixTags.MsgType, SessionRejectReason.InvalidMsgType);
        }

        bool bodySeen = false;
        bool trailerSeen = false;
        int requiredSeen = 0;
        ushort[] rules = definition.Rules;
        ReadOnlySpan<FixMessage.Field> fields = message.Fields;
        ReadOnlySpan<byte> raw = message.Raw;
        for (int i = 0; i < fields.Length; i++)
        {
            ref readonly FixMessage.Field field = ref fields[i];
            int tag = field.Tag;
            if (i < StandardPrefix.Length ? tag != StandardPrefix[i] : tag is FixTags.BeginString or FixTags.BodyLength or FixTags.MsgType)
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

            var type = (FixFieldType)((rule >> 8) & MessageDefinition.TypeMask);
            if (type == FixFieldType.Text && (rule & MessageDefinition.HasEnumBit) == 0)
            {
                continue;
            }

            ReadOnlySpan<byte> value = raw.Slice(field.Offset, field.Length);
            FieldStatus status = CheckSyntax(type, value);
            if (status != FieldStatus.Ok)
            {
                return FixFieldError.FromStatus(tag, status);
            }

            if ((rule & MessageDefinition.HasEnumBit) != 0 && !_fields[tag]!.IsAllowedValue(value))
            {
                return FixFieldError.Of(tag, SessionRejectReason.ValueIsIncorrect);
            }
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

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static FieldStatus CheckSyntax(FixFieldType type, ReadOnlySpan<byte> value)
    {
        switch (type)
        {
            case FixFieldType.Int:
                return FixInt.TryParse(value, out long _);
            case FixFieldType.Decimal:
                return FixPrice.IsWellFormed(value) ? FieldStatus.Ok : FieldStatus.Malformed;
            case FixFieldType.Char:
                return FixChar.TryParse(value, out _);
            case FixFieldType.Boolean:
                return FixBool.TryParse(value, out _);
            case FixFieldType.UtcTimestamp:
                return FixTimestamp.TryParse(value, out _);
            case FixFieldType.Date:
                return FixTimestamp.TryParseDate(value, out _);
            default:
                return FieldStatus.Ok;
        }
    }

    private static FixDictionary LoadEmbedded()
    {
        using Stream stream = typeof(FixDictionary).Assembly.GetManifestResourceStream(ResourceName)
            ?? throw new InvalidOperationException($"Embedded resource {ResourceName} is missing from the build.");
        return FixDictionaryLoader.Load(stream);
    }
}
