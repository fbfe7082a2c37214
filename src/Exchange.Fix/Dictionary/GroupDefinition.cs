namespace Exchange.Fix.Dictionary;

/// <summary>
/// One repeating group of the dictionary: its NumInGroup tag, its direct members in dictionary order (components
/// expanded; a nested group appears as its own NumInGroup tag) and the groups nested in it. The first member is the
/// delimiter that opens each instance. Built once at load time, immutable and shared by every message type that
/// reaches the same XML group (a component's group is one definition).
/// </summary>
internal sealed class GroupDefinition
{
    /// <summary>Positions are stored as bytes; the longest FIX 4.4 group has 147 direct members.</summary>
    public const int MaxMembers = byte.MaxValue;

    private readonly byte[] _positions;
    private readonly GroupDefinition?[] _nested;

    public GroupDefinition(int countTag, int[] members, GroupDefinition?[] nestedByMember, int maxTag)
    {
        if (members.Length is 0 or > MaxMembers)
        {
            throw new InvalidDataException($"Group {countTag} has {members.Length} members; 1..{MaxMembers} are supported.");
        }

        CountTag = countTag;
        Members = members;
        _positions = new byte[maxTag + 1];
        _nested = new GroupDefinition?[members.Length + 1];
        for (int i = 0; i < members.Length; i++)
        {
            // A tag listed twice keeps its first position (not the case in FIX 4.4; the order check stays strict).
            if (_positions[members[i]] == 0)
            {
                _positions[members[i]] = (byte)(i + 1);
                _nested[i + 1] = nestedByMember[i];
            }
        }

        int depth = 0;
        foreach (GroupDefinition? nested in nestedByMember)
        {
            depth = Math.Max(depth, nested?.Depth ?? 0);
        }

        Depth = depth + 1;
    }

    /// <summary>The NumInGroup field (e.g. NoPartyIDs 453).</summary>
    public int CountTag { get; }

    /// <summary>The field that must open every instance (e.g. PartyID 448).</summary>
    public int DelimiterTag => Members[0];

    /// <summary>Direct members in dictionary order.</summary>
    public int[] Members { get; }

    /// <summary>1 for a group without nested groups, else 1 + the deepest nested group's depth.</summary>
    public int Depth { get; }

    /// <summary>The 1-based position of <paramref name="tag"/> among the direct members, 0 when it is not one.</summary>
    public int PositionOf(int tag) => (uint)tag < (uint)_positions.Length ? _positions[tag] : 0;

    /// <summary>The group opened by the member at <paramref name="position"/>, or null when that member is a plain field.</summary>
    public GroupDefinition? NestedAt(int position) => _nested[position];
}
