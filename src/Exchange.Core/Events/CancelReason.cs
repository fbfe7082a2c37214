namespace Exchange.Core.Events;

/// <summary>Why quantity left the book without trading.</summary>
public enum CancelReason : byte
{
    None = 0,

    /// <summary>An OrderCancelRequest from the owner.</summary>
    Requested = 1,

    /// <summary>The unfilled remainder of an immediate-or-cancel order.</summary>
    ImmediateOrCancelRemainder = 2,

    /// <summary>The unfilled remainder of a market order, which never rests.</summary>
    MarketRemainder = 3,

    /// <summary>A replace reduced the order quantity to or below what had already filled.</summary>
    ReplacedToFilled = 4,

    /// <summary>A Day order still resting when a new trading day began (<see cref="Commands.CommandType.NewTradingDay"/>).</summary>
    Expired = 5,

    /// <summary>
    /// A fill-or-kill order that could not fill completely on arrival: killed whole, reported as Canceled (as FIX venues
    /// report it), without an order id, as it never entered the book.
    /// </summary>
    FillOrKillUnfillable = 6,

    /// <summary>An OrderMassCancelRequest of the owner (<see cref="Commands.CommandType.MassCancel"/>).</summary>
    MassCancel = 7,

    /// <summary>The owner's session ended and it cancels on disconnect (<see cref="Commands.CommandType.CancelOnDisconnect"/>).</summary>
    SessionDisconnected = 8,

    /// <summary>
    /// Self-trade prevention (<see cref="Domain.SelfTradePrevention"/>): a resting order the same owner's incoming order
    /// would have traded with, or the incoming order's remainder.
    /// </summary>
    SelfTradePrevention = 9,
}
