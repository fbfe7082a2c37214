namespace Exchange.Core.Domain;

/// <summary>
/// Time in force. Values equal FIX TimeInForce (59). Day and GTC both rest; a Day order expires at the next
/// <see cref="Commands.CommandType.NewTradingDay"/> (the engine has no clock: the venue issues that command).
/// </summary>
public enum TimeInForce : byte
{
    Day = (byte)'0',
    GoodTillCancel = (byte)'1',
    ImmediateOrCancel = (byte)'3',
    FillOrKill = (byte)'4',
}
