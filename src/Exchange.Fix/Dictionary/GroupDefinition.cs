namespace Exchange.Fix.Dictionary;

/// <summary>
/// One repeating group of the dictionary: its NumInGroup tag, its direct members in dictionary order (components
/// expanded; a nested group appears as its own NumInGroup tag) and the groups nested in it. The first member is the
/// delimiter that opens each instance; some others are required in every instance. Built once at load time, immutable and shared by every message type that
/// reaches the same XML group (a component's group is one definition).
/// </summary>
internal sealed class GroupDefinition
{
    /// <summary>Positions are stored as bytes; the longest FIX 4.4 group has 147 direct members.</summary>
    public const int MaxMembers = byte.MaxValue;

    /// <summary>Required members are tracked as bits of one word per instance; FIX 4.4 groups have at most 5.</summary>
    public const int MaxRequiredMembers = 64;

    private readonly byte[] _positions;
    private readonly GroupDefinition?[] _nested;
    /// <summary>Per position: 1 + the member's index in <see cref="RequiredMembers"/>, 0 when not required.</summary>
    private readonly byte[] _requiredAt;

    /// <param name="requiredByMember">Per member: required in every instance. The delimiter always is, whatever it says.</param>
    public GroupDefinition(int countTag, int[] members, GroupDefinition?[] nestedByMember, bool[] requiredByMember, int maxTag)
    {
        if (members.Length is 0 or > MaxMembers)
        {
            throw new InvalidDataException($"Group {countTag} has {members.Length} members; 1..{MaxMembers} are supported.");
        }

        CountTag = countTag;
        Members = members;
        _positions = new byte[maxTag + 1];
        _nested = new GroupDefinition?[members.Length + 1];
        _requiredAt = new byte[members.Length + 1];
        var required = new List<int>();
        for (int i = 0; i < members.Length; i++)
        {
            // A tag listed twice keeps its first position (not the case in FIX 4.4; the order check stays strict).
            if (_positions[members[i]] == 0)
            {
                _positions[members[i]] = (byte)(i + 1);
                _nested[i + 1] = nestedByMember[i];
                if (i > 0 && requiredByMember[i])
                {
                    required.Add(members[i]);
                    _requiredAt[i + 1] = (byte)required.Count;
                }
            }
        }

        if (required.Count > MaxRequiredMembers)
        {
            throw new InvalidDataException($"Group {countTag} has {required.Count} required members; at most {MaxRequiredMembers} are supported.");
        }

        RequiredMembers = [.. required];

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

    /// <summary>Members other than the delimiter that every instance must have, in dictionary order.</summary>
    public int[] RequiredMembers { get; }

    /// <summary>1 for a group without nested groups, else 1 + the deepest nested group's depth.</summary>
    public int Depth { get; }

    /// <summary>The 1-based position of <paramref name="tag"/> among the direct members, 0 when it is not one.</summary>
    public int PositionOf(int tag) => (uint)tag < (uint)_positions.Length ? _positions[tag] : 0;

    /// <summary>
    /// For the member at <paramref name="position"/>: its bit among <see cref="RequiredMembers"/> (bit i for the i-th),
    /// or 0 when it is not required (the delimiter never is: it opens the instance).
    /// </summary>
    public ulong RequiredBitAt(int position) => _requiredAt[position] == 0 ? 0 : 1UL << (_requiredAt[position] - 1);

    /// <summary>The bits of every required member: what an instance's seen bits must equal.</summary>
    public ulong AllRequiredBits => RequiredMembers.Length == 0 ? 0 : ulong.MaxValue >> (64 - RequiredMembers.Length);

    /// <summary>The group opened by the member at <paramref name="position"/>, or null when that member is a plain field.</summary>
    public GroupDefinition? NestedAt(int position) => _nested[position];
}
