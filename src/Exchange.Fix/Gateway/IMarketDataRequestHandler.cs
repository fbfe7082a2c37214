namespace Exchange.Fix.Gateway;

/// <summary>Receives valid market-data subscriptions; the host implements it with its market-data publisher.</summary>
/// <remarks>Called on a connection's I/O task. Invalid requests never get here: the gateway answers them with 35=Y.</remarks>
public interface IMarketDataRequestHandler
{
    /// <summary>One call per instrument named in the request.</summary>
    void OnMarketDataRequest(int ownerId, in MarketDataSubscription subscription);

    /// <summary>The session's connection ended: drop its subscriptions.</summary>
    void OnSessionDisconnected(int ownerId);
}
