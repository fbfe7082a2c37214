namespace Exchange.Core.Domain;

/// <summary>Order type. Values equal FIX OrdType (40).</summary>
public enum OrderType : byte
{
    None = 0,
    Market = (byte)'1',
    Limit = (byte)'2',
}
