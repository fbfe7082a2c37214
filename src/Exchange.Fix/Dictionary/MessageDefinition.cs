namespace Exchange.Fix.Dictionary;

/// <summary>
/// Flattened rules of one message type: header, body (components expanded) and trailer fields as per-tag flags,
/// plus the tags that must be present.
/// </summary>
internal sealed class MessageDefinition
{
    public MessageDefinition(string msgType, string name, bool isAdmin, byte[] flags, int[] requiredTags)
    {
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
}
