namespace Exchange.Core.Domain;

/// <summary>Time in force. Values equal FIX TimeInForce (59). Day and GTC both rest; the engine has no session clock.</summary>
public enum TimeInForce : byte
{
    Day = (byte)'0',
    GoodTillCancel = (byte)'1',
    ImmediateOrCancel = (byte)'3',
    FillOrKill = (byte)'4',
}
