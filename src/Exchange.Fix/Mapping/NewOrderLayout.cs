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

    private readonly ValueCheck[] _otherChecks = new ValueCheck[LayoutPlans.MaxFields];
    private LayoutPlan? _plan;
    private int _planVersion;

    public bool Qualifies { get; private set; }

    public int MsgTypeIndex { get; private set; }

    public int SenderCompIdIndex { get; private set; }

    public int TargetCompIdIndex { get; private set; }

    public int MsgSeqNumIndex { get; private set; }

    public int SendingTimeIndex { get; private set; }

    public int ClOrdIdIndex { get; private set; }

    public int SymbolIndex { get; private set; }

    public int SideIndex { get; private set; }

    public int OrderQtyIndex { get; private set; }

    public int OrdTypeIndex { get; private set; }

    /// <summary><see cref="Absent"/> when the layout has no Price (then only a market order maps).</summary>
    public int PriceIndex { get; private set; }

    /// <summary><see cref="Absent"/> when the layout has no TimeInForce (Day).</summary>
    public int TimeInForceIndex { get; private set; }

    /// <summary><see cref="Absent"/> when the layout has no TransactTime.</summary>
    public int TransactTimeIndex { get; private set; }

    /// <summary>The single-byte values both the dictionary and the mapper accept, as the dictionary's enum masks.</summary>
    public EnumMask Sides { get; private set; }

    public EnumMask OrdTypes { get; private set; }

    public EnumMask TimesInForce { get; private set; }

    /// <summary>The plan's checks of the fields the fused read does not consume.</summary>
    public ReadOnlySpan<ValueCheck> OtherChecks => _otherChecks.AsSpan(0, OtherCheckCount);

    private int OtherCheckCount { get; set; }

    /// <summary>True when this describes <paramref name="plan"/>'s current layout.</summary>
    public bool IsFor(LayoutPlan plan) => ReferenceEquals(plan, _plan) && plan.Version == _planVersion;

    /// <summary>Describes <paramref name="plan"/> (rebuilt only when it is not already); true when the layout qualifies.</summary>
    public bool Describe(LayoutPlan plan)
    {
        if (!IsFor(plan))
        {
            Build(plan);
        }

        return Qualifies;
    }

    /// <summary>Describes <paramref name="plan"/>, a NewOrderSingle layout's plan.</summary>
    public void Build(LayoutPlan plan)
    {
        _plan = plan;
        _planVersion = plan.Version;
        Qualifies = TryIndex(plan) && TrySortChecks(plan);
    }

    private bool TryIndex(LayoutPlan plan)
    {
        MsgTypeIndex = SenderCompIdIndex = TargetCompIdIndex = MsgSeqNumIndex = SendingTimeIndex = ClOrdIdIndex = SymbolIndex = Absent;
        SideIndex = OrderQtyIndex = OrdTypeIndex = PriceIndex = TimeInForceIndex = TransactTimeIndex = Absent;
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
                case FixTags.MsgType: MsgTypeIndex = i; break;
                case FixTags.SenderCompID: SenderCompIdIndex = i; break;
                case FixTags.TargetCompID: TargetCompIdIndex = i; break;
                case FixTags.MsgSeqNum: MsgSeqNumIndex = i; break;
                case FixTags.SendingTime: SendingTimeIndex = i; break;
                case FixTags.ClOrdID: ClOrdIdIndex = i; break;
                case FixTags.Symbol: SymbolIndex = i; break;
                case FixTags.Side: SideIndex = i; break;
                case FixTags.OrderQty: OrderQtyIndex = i; break;
                case FixTags.OrdType: OrdTypeIndex = i; break;
                case FixTags.Price: PriceIndex = i; break;
                case FixTags.TimeInForce: TimeInForceIndex = i; break;
                case FixTags.TransactTime: TransactTimeIndex = i; break;
            }
        }

        return MsgTypeIndex != Absent && SenderCompIdIndex != Absent && TargetCompIdIndex != Absent && MsgSeqNumIndex != Absent && SendingTimeIndex != Absent &&
            ClOrdIdIndex != Absent && SymbolIndex != Absent && SideIndex != Absent && OrderQtyIndex != Absent && OrdTypeIndex != Absent;
    }

    /// <summary>
    /// Takes the checks of the consumed fields out of the plan's list (each must be of the kind the fused read runs),
    /// keeping the rest in <see cref="OtherChecks"/>.
    /// </summary>
    private bool TrySortChecks(LayoutPlan plan)
    {
        OtherCheckCount = 0;
        int consumedChecks = 0;
        foreach (ref readonly ValueCheck check in plan.Checks.AsSpan(0, plan.CheckCount))
        {
            int index = check.FieldIndex;
            if (plan.Tags[index] == FixTags.BodyLength && check.Kind == PlannedCheckKind.Int)
            {
                // Framing has checked it: FixFramer accepts only 1 to FixFramer.MaxBodyLengthDigits digits, which
                // always pass the INT check. So the fused read is only for messages FixFramer framed.
                continue;
            }

            PlannedCheckKind expected = ExpectedKind(index);
            if (expected == PlannedCheckKind.General)
            {
                _otherChecks[OtherCheckCount++] = check;
                continue;
            }

            if (check.Kind != expected)
            {
                return false;
            }

            consumedChecks++;
            if (index == SideIndex)
            {
                Sides = EnumMask.Of(check, static b => OrderFields.IsSupported((Side)b));
            }
            else if (index == OrdTypeIndex)
            {
                OrdTypes = EnumMask.Of(check, static b => OrderFields.IsSupported((OrderType)b));
            }
            else if (index == TimeInForceIndex)
            {
                TimesInForce = EnumMask.Of(check, static b => OrderFields.IsSupported((TimeInForce)b));
            }
        }

        // Every consumed field must have had its check: the fused read runs each one and so stands in for the plan.
        int consumedFields = 0;
        foreach (int index in (ReadOnlySpan<int>)[MsgSeqNumIndex, SendingTimeIndex, TransactTimeIndex, SideIndex, OrdTypeIndex, TimeInForceIndex, OrderQtyIndex, PriceIndex])
        {
            consumedFields += index != Absent ? 1 : 0;
        }

        return consumedChecks == consumedFields;
    }

    /// <summary>The lean check the fused read runs on field <paramref name="index"/>; General for fields it does not consume.</summary>
    private PlannedCheckKind ExpectedKind(int index)
    {
        if (index == MsgSeqNumIndex)
        {
            return PlannedCheckKind.Int;
        }

        if (index == SendingTimeIndex || index == TransactTimeIndex)
        {
            return PlannedCheckKind.Timestamp;
        }

        if (index == SideIndex || index == OrdTypeIndex || index == TimeInForceIndex)
        {
            return PlannedCheckKind.CharEnum;
        }

        return index == OrderQtyIndex || index == PriceIndex ? PlannedCheckKind.Decimal : PlannedCheckKind.General;
    }
}
