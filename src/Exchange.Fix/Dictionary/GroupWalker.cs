using System.Numerics;
using System.Runtime.CompilerServices;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Dictionary;

/// <summary>
/// The repeating-group state of one dictionary walk: a stack of open groups (a local value, no allocation). The walk
/// hands it every field that is a group member or NumInGroup, and every field while a group is open; it applies the
/// FIX 4.4 rules: each instance opens with the delimiter (the group's first member), members follow in dictionary
/// order (373=15 otherwise, RefTagID = the offending tag), a group member with no open group is out of order (15),
/// each instance must hold the group's required members (373=1, RefTagID = the first one missing, reported where the
/// instance ends), and when a group ends (at the first field that is not one of its members, or the end of the message)
/// its NumInGroup value must equal the instances seen (373=16, RefTagID = the NumInGroup tag).
/// </summary>
/// <remarks>
/// Each close is reported to <c>closes</c> (when room is left) so a clean layout's plan can repeat the count checks
/// at the same point of the walk without walking the structure again; see <see cref="LayoutPlan"/>.
/// </remarks>
internal struct GroupWalker
{
    /// <summary>Deepest nesting supported; FIX 4.4 needs 4. The loader refuses deeper dictionaries.</summary>
    public const int MaxDepth = 8;

    private Frames _frames;
    private int _depth;

    public readonly int Depth => _depth;

    /// <summary>
    /// Places the field at <paramref name="index"/> in the group structure: closes the groups it does not belong to,
    /// counts an instance when it is a delimiter, opens a group when it is a NumInGroup.
    /// </summary>
    public FixFieldError Visit(
        MessageDefinition definition, Span<FixMessage.Field> fields, int index, FieldFlags flags, Span<GroupClose> closes, ref int closeCount)
    {
        int tag = fields[index].Tag;
        while (_depth > 0)
        {
            ref Frame top = ref _frames[_depth - 1];
            int position = top.Group.PositionOf(tag);
            if (position == 0)
            {
                FixFieldError closed = Close(fields, index, closes, ref closeCount);
                if (closed.IsError)
                {
                    return closed;
                }

                continue;
            }

            if (position == 1)
            {
                FixFieldError incomplete = CheckInstance(top);
                if (incomplete.IsError)
                {
                    return incomplete;
                }

                top.Instances++;
                top.RequiredSeen = 0;
            }
            else if (top.Instances == 0 || position <= top.LastPosition)
            {
                return FixFieldError.Of(tag, SessionRejectReason.RepeatingGroupFieldsOutOfOrder);
            }
            else
            {
                top.RequiredSeen |= top.Group.RequiredBitAt(position);
            }

            top.LastPosition = position;
            GroupDefinition? nested = top.Group.NestedAt(position);
            if (nested is not null)
            {
                Open(nested, index);
            }

            return FixFieldError.None;
        }

        if ((flags & FieldFlags.GroupCount) != 0 && definition.TopLevelGroup(tag) is { } group)
        {
            Open(group, index);
            return FixFieldError.None;
        }

        return (flags & FieldFlags.TopLevel) == 0
            ? FixFieldError.Of(tag, SessionRejectReason.RepeatingGroupFieldsOutOfOrder)
            : FixFieldError.None;
    }

    /// <summary>Closes every group still open at the end of the message (normally none: CheckSum closes them).</summary>
    public FixFieldError Finish(Span<FixMessage.Field> fields, Span<GroupClose> closes, ref int closeCount)
    {
        while (_depth > 0)
        {
            FixFieldError closed = Close(fields, fields.Length, closes, ref closeCount);
            if (closed.IsError)
            {
                return closed;
            }
        }

        return FixFieldError.None;
    }

    private void Open(GroupDefinition group, int countIndex)
    {
        // Cannot overflow: a group is opened only inside its parent, and the loader caps GroupDefinition.Depth.
        _frames[_depth++] = new Frame { Group = group, CountIndex = countIndex };
    }

    /// <summary>
    /// Pops the innermost group at field <paramref name="atIndex"/> and compares its NumInGroup value, which the walk
    /// parsed as an INT when it reached that field, with the instances counted.
    /// </summary>
    private FixFieldError Close(Span<FixMessage.Field> fields, int atIndex, Span<GroupClose> closes, ref int closeCount)
    {
        ref Frame top = ref _frames[--_depth];
        FixFieldError incomplete = CheckInstance(top);
        if (incomplete.IsError)
        {
            return incomplete;
        }

        if ((uint)closeCount < (uint)closes.Length)
        {
            closes[closeCount++] = new GroupClose { AtIndex = atIndex, CountIndex = top.CountIndex, Instances = top.Instances };
        }

        return fields[top.CountIndex].Value == top.Instances
            ? FixFieldError.None
            : FixFieldError.Of(top.Group.CountTag, SessionRejectReason.IncorrectNumInGroupCount);
    }

    /// <summary>
    /// The instance of <paramref name="frame"/> that just ended (none when no instance has started) must have held every
    /// required member; the first one missing, in dictionary order, is the error.
    /// </summary>
    private static FixFieldError CheckInstance(in Frame frame)
    {
        ulong missing = frame.Group.AllRequiredBits & ~frame.RequiredSeen;
        return frame.Instances == 0 || missing == 0
            ? FixFieldError.None
            : FixFieldError.Of(frame.Group.RequiredMembers[BitOperations.TrailingZeroCount(missing)], SessionRejectReason.RequiredTagMissing);
    }

    private struct Frame
    {
        public GroupDefinition Group;
        public int CountIndex;
        public int Instances;
        public int LastPosition;

        /// <summary>Bits (see <see cref="GroupDefinition.RequiredBitAt"/>) of the required members seen in the current instance.</summary>
        public ulong RequiredSeen;
    }

    [InlineArray(MaxDepth)]
    private struct Frames
    {
        private Frame _first;
    }
}

/// <summary>
/// A group that ended while walking a layout: before the value check of field <see cref="AtIndex"/> (or at the end
/// of the message), the NumInGroup field at <see cref="CountIndex"/> had to hold <see cref="Instances"/>.
/// </summary>
internal struct GroupClose
{
    public int AtIndex;
    public int CountIndex;
    public int Instances;
}
