using Exchange.Core.Domain;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;

namespace Exchange.Fix.Mapping;

/// <summary>
/// Where one NewOrderSingle layout (a <see cref="LayoutPlan"/>) carries the fields <see cref="FusedNewOrderReader"/>
/// reads, as field indexes of a guided parse, and whether the layout qualifies for that reader at all.
/// </summary>
/// <remarks>
/// A layout qualifies only when what the fused read does not look at cannot change the outcome: the plan's checks are
/// all lean ones (no repeating groups, no BOOLEAN or date fields), no tag repeats, every field the session or the
/// mapper needs is there, and none that would make them act otherwise is (PossDupFlag, PossResend, OrigSendingTime,
/// and the instructions and instrument qualifiers <see cref="OrderFields.RefuseUnsupportedInstructions"/> refuses).
/// Each field the fused read consumes must have the plan check it expects; every other planned check is listed in
/// <see cref="OtherChecks"/> for the fused read to run as the plan would.
/// One instance per connection, rebuilt in place for another layout, so it never allocates after construction.
/// </remarks>
internal sealed class NewOrderLayout
{
    public const int Absent = -1;

    private readonly ValueCheck[] _otherIntChecks = new ValueCheck[LayoutPlans.MaxFields];
    private readonly ValueCheck[] _otherChecks = new ValueCheck[LayoutPlans.MaxFields];
    private LayoutPlan? _plan;
    private int _planVersion;

    public bool Qualifies { get; private set; }

    public int MsgType { get; private set; }

    public int SenderCompId { get; private set; }

    public int TargetCompId { get; private set; }

    public int MsgSeqNum { get; private set; }

    public int SendingTime { get; private set; }

    public int ClOrdId { get; private set; }

    public int Symbol { get; private set; }

    public int Side { get; private set; }

    public int OrderQty { get; private set; }

    public int OrdType { get; private set; }

    /// <summary><see cref="Absent"/> when the layout has no Price (then only a market order maps).</summary>
    public int Price { get; private set; }

    /// <summary><see cref="Absent"/> when the layout has no TimeInForce (Day).</summary>
    public int TimeInForce { get; private set; }

    /// <summary><see cref="Absent"/> when the layout has no TransactTime.</summary>
    public int TransactTime { get; private set; }

    /// <summary>The single-byte values both the dictionary and the mapper accept, as the dictionary's enum masks.</summary>
    public EnumMask Sides { get; private set; }

    public EnumMask OrdTypes { get; private set; }

    public EnumMask TimesInForce { get; private set; }

    /// <summary>The plan's INT checks of the fields the fused read does not consume (BodyLength, typically).</summary>
    public ReadOnlySpan<ValueCheck> OtherIntChecks => _otherIntChecks.AsSpan(0, OtherIntCheckCount);

    /// <summary>The plan's other checks of the fields the fused read does not consume.</summary>
    public ReadOnlySpan<ValueCheck> OtherChecks => _otherChecks.AsSpan(0, OtherCheckCount);

    private int OtherIntCheckCount { get; set; }

    private int OtherCheckCount { get; set; }

    /// <summary>True when this describes <paramref name="plan"/>'s current layout.</summary>
    public bool IsFor(LayoutPlan plan) => ReferenceEquals(plan, _plan) && plan.Version == _planVersion;

    /// <summary>Describes <paramref name="plan"/>, a NewOrderSingle layout's plan.</summary>
    public void Build(LayoutPlan plan)
    {
        _plan = plan;
        _planVersion = plan.Version;
        Qualifies = TryIndex(plan) && TrySortChecks(plan);
    }

    private bool TryIndex(LayoutPlan plan)
    {
        MsgType = SenderCompId = TargetCompId = MsgSeqNum = SendingTime = ClOrdId = Symbol = Absent;
        Side = OrderQty = OrdType = Price = TimeInForce = TransactTime = Absent;
        if (plan.GroupCheckCount != 0 || plan.HasGeneralChecks)
        {
            return false;
        }

        ReadOnlySpan<int> tags = plan.Tags.AsSpan(0, plan.Count);
        for (int i = 0; i < tags.Length; i++)
        {
            int tag = tags[i];
            if (tags[..i].Contains(tag) || tag is FixTags.PossDupFlag or FixTags.PossResend or FixTags.OrigSendingTime ||
                OrderFields.IsInstructionChecked(tag))
            {
                return false;
            }

            switch (tag)
            {
                case FixTags.MsgType: MsgType = i; break;
                case FixTags.SenderCompID: SenderCompId = i; break;
                case FixTags.TargetCompID: TargetCompId = i; break;
                case FixTags.MsgSeqNum: MsgSeqNum = i; break;
                case FixTags.SendingTime: SendingTime = i; break;
                case FixTags.ClOrdID: ClOrdId = i; break;
                case FixTags.Symbol: Symbol = i; break;
                case FixTags.Side: Side = i; break;
                case FixTags.OrderQty: OrderQty = i; break;
                case FixTags.OrdType: OrdType = i; break;
                case FixTags.Price: Price = i; break;
                case FixTags.TimeInForce: TimeInForce = i; break;
                case FixTags.TransactTime: TransactTime = i; break;
            }
        }

        return MsgType != Absent && SenderCompId != Absent && TargetCompId != Absent && MsgSeqNum != Absent && SendingTime != Absent &&
            ClOrdId != Absent && Symbol != Absent && Side != Absent && OrderQty != Absent && OrdType != Absent;
    }

    /// <summary>
    /// Takes the checks of the consumed fields out of the plan's list (each must be of the kind the fused read runs),
    /// keeping the rest in <see cref="OtherChecks"/>.
    /// </summary>
    private bool TrySortChecks(LayoutPlan plan)
    {
        OtherCheckCount = 0;
        OtherIntCheckCount = 0;
        int consumedChecks = 0;
        foreach (ref readonly ValueCheck check in plan.Checks.AsSpan(0, plan.CheckCount))
        {
            int index = check.FieldIndex;
            if (plan.Tags[index] == FixTags.BodyLength && check.Kind == PlannedCheckKind.Int)
            {
                // Framing has checked it: FixFramer accepts only 1 to 6 digits, which always pass the INT check.
                continue;
            }

            PlannedCheckKind expected = ExpectedKind(index);
            if (expected == PlannedCheckKind.General)
            {
                if (check.Kind == PlannedCheckKind.Int)
                {
                    _otherIntChecks[OtherIntCheckCount++] = check;
                }
                else
                {
                    _otherChecks[OtherCheckCount++] = check;
                }

                continue;
            }

            if (check.Kind != expected)
            {
                return false;
            }

            consumedChecks++;
            if (index == Side)
            {
                Sides = EnumMask.Of(check, static b => OrderFields.IsSupported((Side)b));
            }
            else if (index == OrdType)
            {
                OrdTypes = EnumMask.Of(check, static b => OrderFields.IsSupported((OrderType)b));
            }
            else if (index == TimeInForce)
            {
                TimesInForce = EnumMask.Of(check, static b => OrderFields.IsSupported((TimeInForce)b));
            }
        }

        // Every consumed field must have had its check: the fused read runs each one and so stands in for the plan.
        int consumedFields = 5 + (Price != Absent ? 1 : 0) + (TimeInForce != Absent ? 1 : 0) + (TransactTime != Absent ? 1 : 0);
        return consumedChecks == consumedFields;
    }

    /// <summary>The lean check the fused read runs on field <paramref name="index"/>; General for fields it does not consume.</summary>
    private PlannedCheckKind ExpectedKind(int index)
    {
        if (index == MsgSeqNum)
        {
            return PlannedCheckKind.Int;
        }

        if (index == SendingTime || index == TransactTime)
        {
            return PlannedCheckKind.Timestamp;
        }

        if (index == Side || index == OrdType || index == TimeInForce)
        {
            return PlannedCheckKind.CharEnum;
        }

        return index == OrderQty || index == Price ? PlannedCheckKind.Decimal : PlannedCheckKind.General;
    }
}

/// <summary>A set of single-byte values in the dictionary's two-mask form (<see cref="FixDictionary.IsSingleByteEnum"/>).</summary>
internal readonly record struct EnumMask(ulong Low, ulong High)
{
    public bool Contains(byte value) => FixDictionary.IsSingleByteEnum(value, Low, High);

    /// <summary>The values of <paramref name="check"/>'s enum that <paramref name="accepts"/> too.</summary>
    public static EnumMask Of(in ValueCheck check, Func<byte, bool> accepts)
    {
        ulong low = 0;
        ulong high = 0;
        for (int b = 0; b < 128; b++)
        {
            if (FixDictionary.IsSingleByteEnum((byte)b, check.EnumLow, check.EnumHigh) && accepts((byte)b))
            {
                if (b < 64)
                {
                    low |= 1UL << b;
                }
                else
                {
                    high |= 1UL << (b - 64);
                }
            }
        }

        return new EnumMask(low, high);
    }
}
