namespace Exchange.Core.Commands;

public enum CommandType : byte
{
    None = 0,
    NewOrder = 1,
    Cancel = 2,
    Replace = 3,

    /// <summary>
    /// Starts a new trading day: every client order id used so far may be used again, except those of orders still
    /// resting. An operator command (no FIX message maps to it), journalled like any other so replay sees the day
    /// boundary where it was. It produces no events. Day orders are not expired by it: the engine does not yet treat
    /// Day differently from GoodTillCancel.
    /// </summary>
    NewTradingDay = 4,
}
