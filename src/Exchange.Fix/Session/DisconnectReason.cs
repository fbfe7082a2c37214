namespace Exchange.Fix.Session;

/// <summary>Why the session asked its transport to close, for logs and tests.</summary>
public enum DisconnectReason
{
    None,
    FirstMessageNotLogon,
    UnknownSession,
    SessionAlreadyConnected,
    InvalidLogon,
    LogonTimeout,
    MsgSeqNumTooLow,
    MsgSeqNumMissing,
    WrongBeginString,
    CompIdProblem,
    SendingTimeAccuracyProblem,
    UnexpectedLogon,
    LogoutCompleted,
    LogoutTimeout,
    HeartbeatTimeout,
    PeerClosed,

    /// <summary>A Logon arrived while the session's previous logon was still ending (its orders being cancelled on disconnect).</summary>
    PreviousLogonEnding,
}
