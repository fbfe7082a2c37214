using System.Buffers.Binary;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Dictionary;

/// <summary>
/// What a parser needs to re-read a known clean layout without tokenizing tags: per field, the exact "tag=" bytes to
/// expect (compared as one masked 8-byte word), and a ready tag → field-index table. Built once per
/// <see cref="LayoutPlan"/> from the message that made the plan clean; see <see cref="FixMessage"/>'s guided parse.
/// </summary>
/// <remarks>
/// A guided parse accepts a message only when every field carries exactly the expected tag and the MsgType value is
/// the plan's; anything else falls back to the full parse, so the guide can only speed a message up, never change its
/// verdict. Tags the parser accepts are canonical decimal (no sign, no leading zero), so comparing the text of the
/// tag number is equivalent to comparing parsed numbers. Single-threaded, like the plan that owns it.
/// </remarks>
internal sealed class ParseGuide
{
    /// <summary>Slots stamped with this generation are live; the table is rebuilt (not aged) when the plan changes.</summary>
    public const uint SlotGeneration = 1;

    /// <summary>The longest "tag=" one 8-byte compare covers: tags of up to 7 digits.</summary>
    private const int MaxTagPrefix = 8;

    public ParseGuide(int maxFields, int tagTableSize)
    {
        Fields = new GuideField[maxFields];
        TagSlots = new uint[tagTableSize];
    }

    /// <summary>False until <see cref="Prepare"/>; a plan's <see cref="LayoutPlan.Reset"/> clears it.</summary>
    public bool IsReady { get; private set; }

    public int Count { get; private set; }

    public GuideField[] Fields { get; }

    /// <summary>Per tag below the table size: <see cref="SlotGeneration"/> in the high 16 bits, the first field's index in the low 16.</summary>
    public uint[] TagSlots { get; }

    public int MsgTypeIndex { get; private set; }

    public FixMsgType MsgTypeKind { get; private set; }

    /// <summary>The MsgType value this layout was validated for (same tags, other MsgType = other definition).</summary>
    public ReadOnlySpan<byte> MsgType => _msgType.AsSpan(0, _msgTypeLength);

    private readonly byte[] _msgType = new byte[MaxTagPrefix];
    private int _msgTypeLength;

    /// <summary>
    /// True when the MsgType field's compare word holds the whole field ("35=", the value, its SOH), so a message
    /// whose fields all match has this MsgType and needs no separate value compare. Types of up to four characters.
    /// </summary>
    public bool MsgTypeInPrefix { get; private set; }

    /// <summary>True once <see cref="Prepare"/> found this layout unguidable (a tag of 8+ digits, a long MsgType, a
    /// LENGTH or DATA field), so it is not tried again for every message of the layout; <see cref="Invalidate"/> clears it.</summary>
    public bool IsUnguidable { get; private set; }

    public void Invalidate()
    {
        IsReady = false;
        IsUnguidable = false;
    }

    /// <summary>
    /// Learns the layout of <paramref name="message"/>, whose tags must be exactly those of the owning plan. Leaves the
    /// guide not ready when a tag is too long for the 8-byte compare, MsgType is unusually long, or the layout has a
    /// paired LENGTH or a DATA field (see remarks).
    /// </summary>
    /// <remarks>
    /// The guide splits a message at every SOH and checks no value, so it could neither take a DATA value that holds
    /// SOHs nor notice a LENGTH value that does not match its DATA value. Such layouts are rare (a Logon's RawData, an
    /// order's EncodedText), so they keep the full tokenizer, which checks both, and still get their plan's value
    /// checks; the guided path itself pays nothing for them. A message of a guided layout cannot carry such a field
    /// either: its LENGTH or DATA tag would sit at a field boundary where the guide expects another tag.
    /// </remarks>
    public void Prepare(FixMessage message, DataFieldPairs dataFields)
    {
        IsReady = false;
        IsUnguidable = true;
        Span<FixMessage.Field> fields = message.Fields;
        ReadOnlySpan<byte> msgType = message.MsgType;
        if (fields.Length > Fields.Length || msgType.Length > _msgType.Length || msgType.IsEmpty)
        {
            return;
        }

        Array.Clear(TagSlots);
        int msgTypeIndex = message.IndexOf(FixTags.MsgType);
        bool msgTypeInPrefix = false;
        Span<byte> text = stackalloc byte[MaxTagPrefix];
        for (int i = 0; i < fields.Length; i++)
        {
            int tag = fields[i].Tag;
            if (!tag.TryFormat(text, out int digits) || digits >= MaxTagPrefix || dataFields.IsMarked(tag))
            {
                return;
            }

            text[digits] = (byte)'=';
            text[(digits + 1)..].Clear();
            int length = digits + 1;
            int compared = length;
            if (i == msgTypeIndex && length + msgType.Length + 1 <= MaxTagPrefix)
            {
                // The value and its SOH join the compare: a field that matches ends exactly there, with this value.
                msgType.CopyTo(text[length..]);
                text[length + msgType.Length] = FixConstants.Soh;
                compared = length + msgType.Length + 1;
                msgTypeInPrefix = true;
            }

            Fields[i] = new GuideField
            {
                Tag = tag,
                PrefixLength = length,
                Prefix = BinaryPrimitives.ReadUInt64LittleEndian(text),
                PrefixMask = ulong.MaxValue >> (8 * (MaxTagPrefix - compared)),
                IsRepeat = fields[i].IsRepeat,
            };

            if ((uint)tag < (uint)TagSlots.Length && !fields[i].IsRepeat)
            {
                TagSlots[tag] = (SlotGeneration << 16) | (uint)i;
            }
        }

        MsgTypeIndex = msgTypeIndex;
        MsgTypeInPrefix = msgTypeInPrefix;
        msgType.CopyTo(_msgType);
        _msgTypeLength = msgType.Length;
        MsgTypeKind = message.MsgTypeKind;
        Count = fields.Length;
        IsUnguidable = false;
        IsReady = true;
    }
}

/// <summary>One field of a <see cref="ParseGuide"/>: its tag and the "tag=" bytes as a little-endian word.</summary>
internal struct GuideField
{
    public ulong Prefix;
    public ulong PrefixMask;
    public int Tag;
    public int PrefixLength;
    public bool IsRepeat;
}
