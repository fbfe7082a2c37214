using System.Text;

namespace Exchange.Fix.Session;

/// <summary>
/// The venue's configured sessions, keyed by (our SenderCompID, the client's CompID), and the gate that binds a new
/// connection to one of them on its first message. Thread-safe: connections on different I/O threads may route
/// concurrently; the lock is taken once per connection, never per message.
/// </summary>
public sealed class SessionRegistry : IDisposable
{
    private readonly Dictionary<(string Ours, string Theirs), (FixSession Session, ISessionStore Store)> _sessions = [];
    private readonly IFixEncoder _encoder;
    private readonly IClock _clock;
    private readonly Lock _gate = new();

    public SessionRegistry(IFixEncoder encoder, IClock clock)
    {
        ArgumentNullException.ThrowIfNull(encoder);
        ArgumentNullException.ThrowIfNull(clock);
        _encoder = encoder;
        _clock = clock;
    }

    /// <summary>Adds a session with the store its config names (<see cref="SessionConfig.CreateStore"/>).</summary>
    public FixSession Add(SessionConfig config)
    {
        ArgumentNullException.ThrowIfNull(config);
        return Add(config, config.CreateStore());
    }

    /// <summary>Adds a session over the given store; the registry disposes the store.</summary>
    public FixSession Add(SessionConfig config, ISessionStore store)
    {
        ArgumentNullException.ThrowIfNull(config);
        ArgumentNullException.ThrowIfNull(store);
        var session = new FixSession(config, store, _encoder, _clock);
        lock (_gate)
        {
            if (!_sessions.TryAdd((config.SenderCompID, config.TargetCompID), (session, store)))
            {
                throw new ArgumentException($"session {config.SenderCompID}->{config.TargetCompID} is already configured", nameof(config));
            }
        }

        return session;
    }

    public bool TryGet(string ourCompId, string theirCompId, out FixSession? session)
    {
        lock (_gate)
        {
            bool found = _sessions.TryGetValue((ourCompId, theirCompId), out var entry);
            session = entry.Session;
            return found;
        }
    }

    /// <summary>
    /// Routes a new connection's first message. A Logon naming a configured, currently unconnected session binds the
    /// connection to it and is processed there; anything else closes <paramref name="transport"/>. A second Logon for
    /// a session that is already connected is closed without a reply: the existing connection stays up, and a Logout
    /// would have to spend one of that live session's MsgSeqNums.
    /// </summary>
    /// <param name="session">The bound session for <see cref="LogonRouting.Accepted"/>, else null.</param>
    public LogonRouting Route(in InboundMessage first, ISessionTransport transport, ISessionApplication application, out FixSession? session)
    {
        ArgumentNullException.ThrowIfNull(transport);
        ArgumentNullException.ThrowIfNull(application);
        session = null;
        if (first.IsGarbled || first.WrongBeginString || first.Type != SessionMsgType.Logon)
        {
            transport.Disconnect(DisconnectReason.FirstMessageNotLogon);
            return LogonRouting.NotLogon;
        }

        // Only ASCII CompIDs can name a session: decoding turns any other byte into '?', which would let a Logon that
        // the session itself refuses (it compares bytes) reach it, and the gateway, which finds the session (and takes
        // its lock) by the same bytes, would not have locked it.
        if (!Ascii.IsValid(first.TargetCompID) || !Ascii.IsValid(first.SenderCompID))
        {
            transport.Disconnect(DisconnectReason.UnknownSession);
            return LogonRouting.UnknownSession;
        }

        // Once per connection, so the two strings are acceptable.
        var key = (Encoding.ASCII.GetString(first.TargetCompID), Encoding.ASCII.GetString(first.SenderCompID));
        FixSession candidate;
        lock (_gate)
        {
            if (!_sessions.TryGetValue(key, out var entry))
            {
                transport.Disconnect(DisconnectReason.UnknownSession);
                return LogonRouting.UnknownSession;
            }

            candidate = entry.Session;
            if (candidate.State != SessionState.Disconnected)
            {
                transport.Disconnect(DisconnectReason.SessionAlreadyConnected);
                return LogonRouting.AlreadyConnected;
            }

            candidate.Bind(transport, application);
        }

        candidate.OnMessage(first);
        if (candidate.State != SessionState.Active)
        {
            return LogonRouting.Refused;
        }

        session = candidate;
        return LogonRouting.Accepted;
    }

    public void Dispose()
    {
        lock (_gate)
        {
            foreach (var entry in _sessions.Values)
            {
                entry.Store.Dispose();
            }

            _sessions.Clear();
        }
    }
}
