namespace Exchange.Core.Domain;

/// <summary>
/// What happens when an incoming order would trade with a resting order of the same owner (a wash trade), set per
/// session by the venue's configuration and carried by each new order and replace. The incoming order's instruction
/// decides, as on most venues. Trades with other owners before and after are unaffected.
/// </summary>
public enum SelfTradePrevention : byte
{
    /// <summary>Own orders trade with each other like anyone's.</summary>
    None = 0,

    /// <summary>The incoming order's remainder is cancelled at the first own resting order it meets, which stays.</summary>
    CancelIncoming = 1,

    /// <summary>Each own resting order the incoming order meets is cancelled, and matching goes on past it.</summary>
    CancelResting = 2,

    /// <summary>The first own resting order met and the incoming order's remainder are both cancelled.</summary>
    CancelBoth = 3,
}
