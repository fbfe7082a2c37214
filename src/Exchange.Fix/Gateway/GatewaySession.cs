using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>
/// One configured session as the gateway drives it: the <see cref="FixSession"/>, the lock that serialises every call
/// into it (connection I/O task, sender thread, market-data thread, timer), and the connection currently bound.
/// </summary>
internal sealed class GatewaySession
{
    public GatewaySession(int ownerId, FixSession session)
    {
        OwnerId = ownerId;
        Session = session;
        Name = $"session {session.Config.SenderCompID}->{session.Config.TargetCompID}";
    }

    public int OwnerId { get; }

    public FixSession Session { get; }

    /// <summary>"session VENUE->CLIENT", as the gateway's log lines name it.</summary>
    public string Name { get; }

    /// <summary>Held for every call into <see cref="Session"/> and every read or write of <see cref="Transport"/>.</summary>
    public Lock Lock { get; } = new();

    /// <summary>The logged-on connection; null while none is bound. Guarded by <see cref="Lock"/>.</summary>
    public ConnectionTransport? Transport { get; set; }

    /// <summary>Accepted logons so far: the number of the current one. Guarded by <see cref="Lock"/>.</summary>
    public int Logins { get; set; }

    /// <summary>
    /// Set when a logon of a session that cancels on disconnect ends, cleared once its
    /// <see cref="Core.Commands.CommandType.CancelOnDisconnect"/> command is in the inbound ring (see
    /// <see cref="FixGateway.CancelOrdersOfEndedLogon"/>). A new Logon is refused while it is set, so no order of the next
    /// connection can be sequenced before that cancel and be cancelled by it. Guarded by <see cref="Lock"/>.
    /// </summary>
    public bool CancelOnDisconnectPending { get; set; }

    /// <summary>Set once the slow-consumer cut-off ran for the current connection, so it runs once.</summary>
    public bool SlowConsumerHandled { get; set; }

    /// <summary>The session's <see cref="FixSession.QueuedMessagesLost"/> when the gateway last logged it. Guarded by <see cref="Lock"/>.</summary>
    public long QueuedMessagesLostLogged { get; set; }

    /// <summary>Timer polls of this session that threw since the last one that did not (see FixGateway.Poll). Guarded by <see cref="Lock"/>.</summary>
    public long PollFailures { get; set; }

    /// <summary>Start-up only: reports stored for journalled events the store lacked (<see cref="FixGateway.RecoverEvent"/>).</summary>
    public int RecoveredReports { get; set; }

    /// <summary>Start-up only: the MsgSeqNum the first of <see cref="RecoveredReports"/> was stored as.</summary>
    public int FirstRecoveredSeqNum { get; set; }
}
