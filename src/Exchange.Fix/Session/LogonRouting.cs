namespace Exchange.Fix.Session;

/// <summary>What <see cref="SessionRegistry.Route"/> did with a new connection's first message.</summary>
public enum LogonRouting
{
    /// <summary>Bound to the session and logged on; feed later messages to the returned session.</summary>
    Accepted,

    /// <summary>Bound to the session, but the Logon was refused (Logout sent) and the connection closed.</summary>
    Refused,

    /// <summary>Garbled or not a Logon: the connection was closed without a reply.</summary>
    NotLogon,

    /// <summary>No configured session for these CompIDs: the connection was closed without a reply.</summary>
    UnknownSession,

    /// <summary>The session already has a connection, which stays up; the new one was closed without a reply.</summary>
    AlreadyConnected,

    /// <summary>
    /// The gateway's, not the registry's: the session's previous logon had ended, but the orders it leaves are still
    /// being cancelled (<see cref="SessionConfig.CancelOnDisconnect"/>); the new connection was closed without a reply
    /// and may log on again a moment later.
    /// </summary>
    PreviousLogonEnding,
}
