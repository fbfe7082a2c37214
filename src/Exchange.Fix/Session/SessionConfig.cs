using System.Text;

namespace Exchange.Fix.Session;

/// <summary>
/// One acceptor session: who we are, who the client is, and the session's tolerances. Immutable after construction.
/// </summary>
/// <remarks>
/// There is no configured HeartBtInt: an acceptor adopts and echoes the interval the client sends on Logon.
/// </remarks>
public sealed class SessionConfig
{
    public SessionConfig(string senderCompId, string targetCompId)
    {
        ArgumentException.ThrowIfNullOrEmpty(senderCompId);
        ArgumentException.ThrowIfNullOrEmpty(targetCompId);
        SenderCompID = senderCompId;
        TargetCompID = targetCompId;
        SenderCompIDBytes = Encoding.ASCII.GetBytes(senderCompId);
        TargetCompIDBytes = Encoding.ASCII.GetBytes(targetCompId);
    }

    /// <summary>The venue's CompID: SenderCompID (49) on what we send, TargetCompID (56) on what we receive.</summary>
    public string SenderCompID { get; }

    /// <summary>The client's CompID: TargetCompID (56) on what we send, SenderCompID (49) on what we receive.</summary>
    public string TargetCompID { get; }

    internal byte[] SenderCompIDBytes { get; }

    internal byte[] TargetCompIDBytes { get; }

    /// <summary>Largest allowed |SendingTime - now| on inbound messages.</summary>
    public TimeSpan SendingTimeTolerance { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>How long a bound connection may stay without a valid Logon.</summary>
    public TimeSpan LogonTimeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>How long the venue waits for the Logout reply after sending Logout.</summary>
    public TimeSpan LogoutTimeout { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Largest range the venue asks for in one ResendRequest; 0 asks for everything (EndSeqNo 0). Further chunks are
    /// requested as each one fills.
    /// </summary>
    public int ResendRequestChunkSize { get; init; }

    /// <summary>
    /// Most inbound messages held behind a sequence gap. Beyond it newer messages are dropped: they are inside the
    /// range already requested, so the client resends them.
    /// </summary>
    public int MaxQueuedMessages { get; init; } = 10_000;

    /// <summary>Where the file store keeps this session; null selects the in-memory store.</summary>
    public string? StorePath { get; init; }

    public FsyncPolicy FsyncPolicy { get; init; } = FsyncPolicy.Always;

    /// <summary>Records per fsync under <see cref="FsyncPolicy.Batch"/>.</summary>
    public int FsyncBatchSize { get; init; } = 64;

    /// <summary>Size of the in-memory store's ring of sent messages (no <see cref="StorePath"/>): the most recent ones that fit can be resent.</summary>
    public int MemoryStoreBytes { get; init; } = MemorySessionStore.DefaultCapacityBytes;

    /// <summary>Write every page of the in-memory store when it is created, so storing a message never page-faults.</summary>
    public bool PreFaultMemoryStore { get; init; }

    /// <summary>
    /// Most application messages a logon may send per second, 0 (no limit) to 1,000,000. A logon may send a second's
    /// allowance at once after a quiet second, then one message per 1/limit of a second. A new order, replace, status
    /// request or market-data subscription past the limit is not acted on: a BusinessMessageReject (35=j, 380=0) names
    /// it. Cancels, mass cancels and unsubscribes are never refused (refusing one would leave the client at risk), nor
    /// are messages the session releases from its gap queue; they count all the same.
    /// </summary>
    public int MaxApplicationMessagesPerSecond { get; init; }

    /// <summary>
    /// What this session's new orders and replaces do when they would trade with one of its own resting orders
    /// (<see cref="Core.Domain.SelfTradePrevention"/>): nothing (they trade, the default), cancel themselves, cancel the
    /// resting order, or both. Set on each command, so the journal replays what the setting was.
    /// </summary>
    public Core.Domain.SelfTradePrevention SelfTradePrevention { get; init; }

    /// <summary>
    /// Cancel on disconnect: when a logon of this session ends, however it ends (Logout either way, a session rule,
    /// a heartbeat timeout, the connection dropping, a slow consumer cut off), the venue cancels every order the session
    /// has resting, GoodTillCancel ones included. The client learns of each cancel from the reports it gets after its
    /// next Logon. Off by default: a FIX session's orders normally outlive its connection.
    /// </summary>
    public bool CancelOnDisconnect { get; init; }

    /// <summary>Opens the store this configuration names (file when <see cref="StorePath"/> is set, else memory).</summary>
    public ISessionStore CreateStore() =>
        StorePath is null
            ? new MemorySessionStore(MemoryStoreBytes, PreFaultMemoryStore)
            : new FileSessionStore(StorePath, FsyncPolicy, FsyncBatchSize);
}
