using Exchange.Fix.Codec;

namespace Exchange.Fix.Dictionary;

/// <summary>
/// Validation plans for the tag layouts one connection has sent: a client sends the same fields in the same order
/// message after message, and everything <see cref="FixDictionary.Validate"/> checks except the values (tag defined
/// and allowed for the type, 8/9/35 first, header/body/trailer order, repeats, required tags) depends only on the
/// MsgType's definition and the tag sequence. A layout that once validated clean therefore needs only its value
/// checks, which the plan lists per field. Repeating groups fit this because their structure (instances, member order)
/// is fixed by the tag sequence too; only the NumInGroup values can differ, so a plan also compares each NumInGroup
/// value with the instance count its layout has (<see cref="LayoutPlan.GroupChecks"/>).
/// </summary>
/// <remarks>
/// Owned by one <see cref="Codec.FixMessage"/> (one connection, one thread). A fixed number of plans of bounded length,
/// all allocated on construction and reused round-robin, so varying layouts cost a full walk, never an allocation.
/// </remarks>
internal sealed class LayoutPlans
{
    public const int Capacity = 4;

    /// <summary>Longer layouts (market-data requests with many symbols, say) are always walked in full.</summary>
    public const int MaxFields = 48;

    private readonly LayoutPlan[] _plans = [new(), new(), new(), new()];
    private int _next;

    /// <summary>Scratch for the groups a full walk closes, copied into a plan when the layout is clean.</summary>
    public GroupClose[] Closes { get; } = new GroupClose[MaxFields];

    public LayoutPlan? Find(FixDictionary dictionary, MessageDefinition definition, ulong hash, int count)
    {
        foreach (LayoutPlan plan in _plans)
        {
            if (plan.Hash == hash && plan.Count == count && ReferenceEquals(plan.Definition, definition) &&
                ReferenceEquals(plan.Dictionary, dictionary))
            {
                return plan;
            }
        }

        return null;
    }

    /// <summary>The plan to overwrite next (oldest first).</summary>
    public LayoutPlan Take()
    {
        LayoutPlan plan = _plans[_next];
        _next = (_next + 1) % Capacity;
        return plan;
    }
}

/// <summary>
/// One clean layout: its tags in order and the value checks to run, only for the fields that have one (INT, decimal,
/// CHAR, BOOLEAN, timestamp or date syntax, or an enum), each with the field's single-byte enum values at hand.
/// </summary>
internal sealed class LayoutPlan
{
    public FixDictionary? Dictionary { get; private set; }

    /// <summary>Counts the layouts this (pooled) plan has held, so data derived from one layout can tell it is stale.</summary>
    public int Version { get; private set; }

    public MessageDefinition? Definition { get; private set; }

    public ulong Hash { get; private set; }

    public int Count { get; private set; }

    public int CheckCount { get; private set; }

    public int[] Tags { get; } = new int[LayoutPlans.MaxFields];

    public ValueCheck[] Checks { get; } = new ValueCheck[LayoutPlans.MaxFields];

    /// <summary>
    /// The lean checks (<see cref="PlannedCheck"/>) of <see cref="Checks"/> grouped by kind, each group in wire order:
    /// char enums up to <see cref="CharEnumEnd"/>, then INTs to <see cref="IntEnd"/>, decimals to
    /// <see cref="DecimalEnd"/>, timestamps to <see cref="TimestampEnd"/>. A loop per kind has no dispatch per check;
    /// valid only while <see cref="HasGeneralChecks"/> is false.
    /// </summary>
    public ValueCheck[] ChecksByKind { get; } = new ValueCheck[LayoutPlans.MaxFields];

    public int CharEnumEnd { get; private set; }

    public int IntEnd { get; private set; }

    public int DecimalEnd { get; private set; }

    public int TimestampEnd { get; private set; }

    /// <summary>True when a check has no lean form (<see cref="PlannedCheckKind.General"/>): checks then run in wire order.</summary>
    public bool HasGeneralChecks { get; private set; }

    /// <summary>
    /// Zero for layouts without repeating groups, whose plans run exactly the value checks. Otherwise the count
    /// checks, in the order the walk closed the groups: each runs just before the value check of its
    /// <see cref="GroupClose.AtIndex"/> field, as in the walk, so both report the same first error.
    /// </summary>
    public int GroupCheckCount { get; private set; }

    public GroupClose[] GroupChecks { get; } = new GroupClose[LayoutPlans.MaxFields];

    /// <summary>How to re-parse this layout without tokenizing its tags; prepared by the first message that uses the plan.</summary>
    public ParseGuide Guide { get; } = new(LayoutPlans.MaxFields, FixMessage.TagTableSize);

    /// <summary>
    /// Names the layout whose <see cref="Tags"/>, first <paramref name="checkCount"/> <see cref="Checks"/> and first
    /// <paramref name="groupCheckCount"/> <see cref="GroupChecks"/> were just written.
    /// </summary>
    public void Reset(FixDictionary dictionary, MessageDefinition definition, ulong hash, int count, int checkCount, int groupCheckCount)
    {
        Version++;
        Guide.Invalidate();
        GroupCheckCount = groupCheckCount;
        Definition = definition;
        Hash = hash;
        Count = count;
        CheckCount = checkCount;
        Dictionary = dictionary;
        GroupByKind();
    }

    private void GroupByKind()
    {
        CharEnumEnd = AppendChecksOf(PlannedCheckKind.CharEnum, 0);
        IntEnd = AppendChecksOf(PlannedCheckKind.Int, CharEnumEnd);
        DecimalEnd = AppendChecksOf(PlannedCheckKind.Decimal, IntEnd);
        TimestampEnd = AppendChecksOf(PlannedCheckKind.Timestamp, DecimalEnd);
        HasGeneralChecks = TimestampEnd != CheckCount;
    }

    /// <summary>Copies the checks of <paramref name="kind"/>, in wire order, to <see cref="ChecksByKind"/> from <paramref name="at"/>; returns the end.</summary>
    private int AppendChecksOf(PlannedCheckKind kind, int at)
    {
        foreach (ref readonly ValueCheck check in Checks.AsSpan(0, CheckCount))
        {
            if (check.Kind == kind)
            {
                ChecksByKind[at++] = check;
            }
        }

        return at;
    }
}

/// <summary>The check of one field of a <see cref="LayoutPlan"/>.</summary>
internal struct ValueCheck
{
    public int FieldIndex;
    public FixFieldType Type;
    public bool HasEnum;

    /// <summary>Which lean check <see cref="PlannedCheck.Passes"/> runs before the general one is needed.</summary>
    public PlannedCheckKind Kind;

    /// <summary>The field's single-byte enum values below 64 and 64..127 as bits (see FieldDefinition).</summary>
    public ulong EnumLow;
    public ulong EnumHigh;
}
