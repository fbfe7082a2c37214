namespace Exchange.Fix.Gateway;

/// <summary>Receives valid market-data subscriptions; the host implements it with its market-data publisher.</summary>
/// <remarks>Called on a connection's I/O task. Invalid requests never get here: the gateway answers them with 35=Y.</remarks>
public interface IMarketDataRequestHandler
{
    /// <summary>
    /// One call per instrument named in a subscription or snapshot request; one call with InstrumentId -1 for an
    /// unsubscribe (263=2), which ends every stream of that MDReqID.
    /// </summary>
    void OnMarketDataRequest(int ownerId, in MarketDataSubscription subscription);

    /// <summary>
    /// The connection of the session's logon number <paramref name="login"/> ended: drop the subscriptions of that logon
    /// and earlier ones, including any that arrive later (<see cref="MarketDataSubscription.Login"/>).
    /// </summary>
    void OnSessionDisconnected(int ownerId, int login);
}
