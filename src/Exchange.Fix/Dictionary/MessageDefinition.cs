namespace Exchange.Fix.Dictionary;

/// <summary>
/// Flattened rules of one message type: header, body (components expanded) and trailer fields as per-tag flags,
/// plus the tags that must be present and the repeating groups that may open at top level (header, body, trailer).
/// </summary>
internal sealed class MessageDefinition
{
    public MessageDefinition(string msgType, string name, bool isAdmin, byte[] flags, int[] requiredTags, GroupDefinition[] groups)
    {
        Groups = groups;
        MsgType = msgType;
        Name = name;
        IsAdmin = isAdmin;
        Flags = flags;
        RequiredTags = requiredTags;
    }

    public string MsgType { get; }

    public string Name { get; }

    public bool IsAdmin { get; }

    /// <summary>Indexed by tag: a combination of <see cref="FieldFlags"/> values.</summary>
    public byte[] Flags { get; }

    /// <summary>Tags required at top level (header, body outside repeating groups, trailer), in dictionary order.</summary>
    public int[] RequiredTags { get; }

    /// <summary>Groups whose NumInGroup field stands at top level (flagged <see cref="FieldFlags.GroupCount"/>).</summary>
    public GroupDefinition[] Groups { get; }

    /// <summary>True when some field of this type belongs to a repeating group (validation then tracks groups).</summary>
    public bool HasGroups => Groups.Length != 0;

    /// <summary>The top-level group opened by NumInGroup <paramref name="countTag"/>, or null. A few per type: a scan.</summary>
    public GroupDefinition? TopLevelGroup(int countTag)
    {
        foreach (GroupDefinition group in Groups)
        {
            if (group.CountTag == countTag)
            {
                return group;
            }
        }

        return null;
    }

    /// <summary>Bits 8..14 of a rule: the field's <see cref="FixFieldType"/>.</summary>
    public const int TypeMask = 0x7F;

    /// <summary>Bit 15 of a rule: the field has an enum list.</summary>
    public const int HasEnumBit = 0x8000;

    /// <summary>
    /// Indexed by tag: <see cref="FieldFlags"/> in the low byte, the field's type and enum bit above, so validation
    /// reads one array slot per field instead of following a reference to its definition.
    /// </summary>
    public ushort[] Rules { get; private set; } = [];

    public void AttachFieldTypes(FieldDefinition?[] fields)
    {
        var rules = new ushort[Flags.Length];
        for (int tag = 0; tag < rules.Length; tag++)
        {
            FieldDefinition? field = tag < fields.Length ? fields[tag] : null;
            if (field is not null && Flags[tag] != 0)
            {
                rules[tag] = (ushort)(Flags[tag] | ((int)field.Type << 8) | (field.HasEnum ? HasEnumBit : 0));
            }
        }

        Rules = rules;
    }

    public FieldFlags FlagsOf(int tag) => (uint)tag < (uint)Flags.Length ? (FieldFlags)Flags[tag] : FieldFlags.None;
}

[Flags]
internal enum FieldFlags : byte
{
    None = 0,
    Allowed = 1,
    Required = 2,

    /// <summary>Inside a repeating group: may legitimately appear more than once.</summary>
    GroupMember = 4,
    Header = 8,
    Trailer = 16,

    /// <summary>The NumInGroup field of a group that opens at top level (see <see cref="MessageDefinition.Groups"/>).</summary>
    GroupCount = 32,

    /// <summary>Allowed outside any repeating group (header, body or trailer proper).</summary>
    TopLevel = 64,
}
