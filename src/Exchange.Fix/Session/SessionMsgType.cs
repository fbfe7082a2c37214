namespace Exchange.Fix.Session;

/// <summary>
/// What the session layer needs to know about a message's MsgType (35). The codec classifies: the seven admin types,
/// application types the venue handles, application types FIX 4.4 defines but the venue does not handle (answered
/// with BusinessMessageReject), and values that are not FIX 4.4 message types at all (answered with Reject 373=11).
/// A BusinessMessageReject from the client has a kind of its own: it is taken as information and never answered, since
/// answering it with another would let two counterparties reject each other's rejects forever.
/// </summary>
public enum SessionMsgType : byte
{
    Heartbeat,
    TestRequest,
    ResendRequest,
    Reject,
    SequenceReset,
    Logout,
    Logon,
    Application,
    UnsupportedApplication,
    BusinessMessageReject,
    Unknown,
}
