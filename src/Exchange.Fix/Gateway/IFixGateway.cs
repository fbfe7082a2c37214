using Exchange.Core.Events;
using Exchange.Core.MarketData;

namespace Exchange.Fix.Gateway;

/// <summary>
/// The venue's FIX side as the host drives it: connections in, engine events and market data out.
/// </summary>
/// <remarks>
/// Threading: <see cref="RunConnectionAsync"/> runs once per connection on the thread pool (or the host polls
/// connections it attached with <see cref="Attach"/>); <see cref="SendEvent"/>
/// only on the host's sender thread; <see cref="SendMarketDataSnapshot"/> and <see cref="SendMarketDataIncremental"/>
/// only on the market-data publisher thread; <see cref="Poll"/> on a timer. Calls into one session are serialised
/// inside the gateway. Steady-state sends allocate nothing.
/// </remarks>
public interface IFixGateway
{
    /// <summary>Number of configured sessions; owner ids are 0..SessionCount-1 in configuration order.</summary>
    int SessionCount { get; }

    /// <summary>
    /// Orders and cancel/replace requests the gateway rejected itself, never reaching the engine, since start: a new
    /// order with a field it cannot map (an unknown symbol, a price with more decimals than the instrument has), a new
    /// order or replace over the session's message limit, or any of them while the venue is stopping. The engine's
    /// rejects, including the cancels and replaces the gateway hands it as refused, are not counted here, nor are
    /// session-level Rejects (35=3), which <see cref="MessageRejectsSent"/> counts. Any thread.
    /// </summary>
    long RejectsSent { get; }

    /// <summary>
    /// Messages refused as messages since start, over all sessions: session-level Rejects (35=3: a malformed message,
    /// a field against the dictionary, a broken session rule) and BusinessMessageRejects (35=j: a message type the
    /// venue does not support, or a message refused over its session's limit). Any thread.
    /// </summary>
    MessageRejects MessageRejectsSent { get; }

    bool IsLoggedOn(int ownerId);

    /// <summary>The whole life of one connection: logon, messages, logout. Completes when the connection is closed.</summary>
    Task RunConnectionAsync(IFixConnection connection, System.IO.Pipelines.PipeReader input, CancellationToken cancellationToken);

    /// <summary>
    /// Polled I/O: attaches a connection whose socket the host reads itself. The host feeds every read to the returned
    /// reader (one thread at a time), stops reading once <see cref="IFixConnectionReader.CloseRequested"/> is set, and
    /// calls <see cref="IFixConnectionReader.Detach"/> exactly once when the connection ends.
    /// </summary>
    IFixConnectionReader Attach(IFixConnection connection);

    /// <summary>Sends one engine event to its owner as an ExecutionReport (or OrderCancelReject); stored for resend if the owner is away.</summary>
    void SendEvent(in EngineEvent engineEvent, in StageTimes times);

    /// <summary>
    /// Start-up only, while the host replays its journal and before any connection or sender runs: one event the
    /// replay produced, in replay order. When its owner's session store holds no report of this event (its id is past
    /// <see cref="Session.ISessionStore.LastEventId"/>), the report is stored as the session's next message, as if sent
    /// while the client was away (queued): the client's Logon then sees a higher MsgSeqNum and its ResendRequest gets
    /// it, or, when the Logon resets the numbering (ResetSeqNumFlag=Y), it follows the reply as a new message.
    /// </summary>
    /// <returns>True when the report was stored; false when the store already had it or cannot tell.</returns>
    bool RecoverEvent(in EngineEvent engineEvent);

    /// <summary>
    /// Start-up only, after the last <see cref="RecoverEvent"/>: <paramref name="lastEventId"/> is the id of the
    /// replay's last event (0 for none). A store that cannot tell which reports it holds starts counting from there.
    /// Logs what each session recovered.
    /// </summary>
    /// <returns>
    /// The highest event id any session store holds a report of, when above <paramref name="lastEventId"/> (the
    /// journal lost records those reports came from), else <paramref name="lastEventId"/>. The host must number new
    /// events above it (<see cref="Core.Commands.CommandType.ReserveEventAndOrderIds"/>): their ExecIDs would otherwise
    /// repeat ones already sent, and those stores would take the new reports for ones they already hold.
    /// </returns>
    long CompleteRecovery(long lastEventId);

    /// <summary>Full refresh (35=W) of one book for one subscription.</summary>
    void SendMarketDataSnapshot(int ownerId, in MarketDataSubscription subscription, in BookDepth depth);

    /// <summary>Incremental refresh (35=X) from <paramref name="previous"/> to <paramref name="current"/>; nothing is sent if they are equal.</summary>
    void SendMarketDataIncremental(int ownerId, in MarketDataSubscription subscription, in BookDepth previous, in BookDepth current);

    /// <summary>Heartbeats, test requests and timeouts of every session.</summary>
    void Poll();

    /// <summary>
    /// For the thread that writes the session stores' reports, when it has nothing else to do (the inline polling thread
    /// in an idle pass; the threaded sender after a batch): prepares the pages the next record of one file store that
    /// needs it will be written to (<see cref="Session.ISessionStore.PrepareNextRecord"/>; one per call, as each is a
    /// page fault an arriving order would wait for; sessions take turns). Returns whether it did anything; with nothing
    /// to prepare it costs a check per session, without a lock. One thread only.
    /// </summary>
    bool PrepareWhileIdle();

    /// <summary>
    /// Logs every session out and waits for replies up to <paramref name="timeout"/>, then cuts off the clients that
    /// did not answer. A session busy in another thread throughout (a thread stuck in a store write) is skipped and
    /// logged, not waited for beyond the timeout; one whose send throws is logged, and the others are still served.
    /// </summary>
    Task LogoutAllAsync(string text, TimeSpan timeout);
}

/// <summary>Counts of <see cref="IFixGateway.MessageRejectsSent"/>: session-level Rejects (35=3) and BusinessMessageRejects (35=j).</summary>
public readonly record struct MessageRejects(long Rejects, long BusinessRejects);
