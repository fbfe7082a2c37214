namespace Exchange.Core.Commands;

public enum CommandType : byte
{
    None = 0,
    NewOrder = 1,
    Cancel = 2,
    Replace = 3,

    /// <summary>
    /// Starts a new trading day: every resting Day order expires (a Cancelled event with
    /// <see cref="Events.CancelReason.Expired"/> each, books in instrument order, bids before asks, each side in
    /// priority order), then every client order id used so far may be used again, except those of orders still
    /// resting (GoodTillCancel). Issued by the venue itself, not by a FIX message, and journalled like any other
    /// command so replay sees the day boundary where it was.
    /// </summary>
    NewTradingDay = 4,
}
