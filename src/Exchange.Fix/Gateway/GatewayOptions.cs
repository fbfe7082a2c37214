namespace Exchange.Fix.Gateway;

/// <summary>Limits and switches of a <see cref="FixGateway"/>. Immutable; read on every thread.</summary>
public sealed class GatewayOptions
{
    /// <summary>
    /// Slow-consumer bound: when a connection's <see cref="IFixConnection.Backlog"/> exceeds it after a send, the
    /// session is logged out ("send backlog exceeded") and the connection closed, so one slow client never holds
    /// memory or threads hostage.
    /// </summary>
    public long MaxSendBacklogBytes { get; init; } = 8 * 1024 * 1024;

    /// <summary>Largest inbound message (framer and parser buffers); a longer one is garbled and skipped.</summary>
    public int MaxMessageSize { get; init; } = Codec.FixFramer.DefaultMaxMessageSize;

    /// <summary>Writes tags 7001..7004 (see <see cref="StageTimes"/>) into every ExecutionReport and OrderCancelReject.</summary>
    public bool StageTimestamps { get; init; }

    /// <summary>How long a new connection may stay without a Logon before <see cref="FixGateway.Poll"/> closes it.</summary>
    public TimeSpan LogonTimeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>How long a closing connection may take to send what is queued.</summary>
    public TimeSpan CloseTimeout { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Garbled frames are logged once, then once every this many per connection (a garbage stream must not flood the log).</summary>
    public int GarbledLogInterval { get; init; } = 1000;

    /// <summary>Most symbols in one MarketDataRequest; more are rejected with 35=Y.</summary>
    public int MaxMarketDataSymbols { get; init; } = 64;

    /// <summary>
    /// Most live market-data subscriptions one logon may hold (each of up to <see cref="MaxMarketDataSymbols"/>
    /// symbols); a further subscription is rejected with 35=Y 281=2. A client that subscribes again and again without
    /// unsubscribing would otherwise multiply its streams, and the publisher's work for every session, without bound.
    /// </summary>
    public int MaxMarketDataSubscriptions { get; init; } = 64;
}
