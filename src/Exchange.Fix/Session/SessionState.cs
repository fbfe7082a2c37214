namespace Exchange.Fix.Session;

/// <summary>Where a <see cref="FixSession"/> is in its connection's life.</summary>
public enum SessionState
{
    /// <summary>No connection is bound; sequence numbers and the store persist across this state.</summary>
    Disconnected,

    /// <summary>A connection is bound and its first message must be a valid Logon.</summary>
    AwaitingLogon,

    /// <summary>Logon exchanged; application messages flow.</summary>
    Active,

    /// <summary>The venue sent Logout and waits (up to <see cref="SessionConfig.LogoutTimeout"/>) for the reply.</summary>
    LogoutSent,
}
