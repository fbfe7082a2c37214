namespace Exchange.Fix.Gateway;

/// <summary>
/// A market-data request handler that ignores every request: for driving a gateway without a market-data publisher,
/// as the host's start-up warm-up and the benchmarks do.
/// </summary>
public sealed class DiscardingMarketDataRequests : IMarketDataRequestHandler
{
    public static readonly DiscardingMarketDataRequests Instance = new();

    public void OnMarketDataRequest(int ownerId, in MarketDataSubscription subscription)
    {
    }

    public void OnSessionDisconnected(int ownerId, int login)
    {
    }
}
