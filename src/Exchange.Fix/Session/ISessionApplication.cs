namespace Exchange.Fix.Session;

/// <summary>
/// Receives what passes the session layer: application messages in sequence order, exactly once each. The gateway
/// implements it to turn NewOrderSingle/Cancel/Replace into engine commands. Called on the session's thread.
/// </summary>
public interface ISessionApplication
{
    /// <summary>
    /// An application message with a verified, in-order MsgSeqNum. The message's sequence number is already consumed,
    /// so the handler may call <see cref="FixSession.SendApplication"/> (e.g. an immediate reject) from here.
    /// Parse <see cref="InboundMessage.Raw"/> for the body; it may be a copy (message was queued behind a gap).
    /// </summary>
    void OnApplicationMessage(FixSession session, in InboundMessage message);

    /// <summary>Logon exchange completed.</summary>
    void OnLogon(FixSession session);

    /// <summary>The session left its connection (any reason).</summary>
    void OnDisconnected(FixSession session, DisconnectReason reason);
}
