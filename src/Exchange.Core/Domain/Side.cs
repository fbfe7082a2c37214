namespace Exchange.Core.Domain;

/// <summary>Order side. Values equal FIX Side (54) so the gateway maps without a table.</summary>
public enum Side : byte
{
    None = 0,
    Buy = (byte)'1',
    Sell = (byte)'2',
}
