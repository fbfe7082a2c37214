namespace Exchange.Core.MarketData;

/// <summary>Aggregated quantity at one price on one side.</summary>
public struct DepthLevel
{
    public long Price;
    public long Quantity;
    public int OrderCount;
}
