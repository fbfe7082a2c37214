namespace Exchange.Host.Configuration;

/// <summary>
/// The whole venue configuration, bound from the "Venue" section (embedded defaults, then appsettings.json, environment
/// variables prefixed EXCHANGE_, then the command line). Validated once at start by <see cref="VenueOptionsValidator"/>.
/// </summary>
public sealed class VenueOptions
{
    public const string SectionName = "Venue";

    public ListenOptions Listen { get; set; } = new();

    public StrategyOptions Strategies { get; set; } = new();

    public PipelineOptions Pipeline { get; set; } = new();

    public JournalOptions Journal { get; set; } = new();

    public MarketDataOptions MarketData { get; set; } = new();

    public TradingDayOptions TradingDay { get; set; } = new();

    public List<SessionOptions> Sessions { get; set; } = [];

    public List<InstrumentOptions> Instruments { get; set; } = [];
}

public sealed class ListenOptions
{
    public string Address { get; set; } = "127.0.0.1";

    public int Port { get; set; } = 9878;

    /// <summary>Bytes of encoded-but-unsent output one session may queue before it is logged out as too slow.</summary>
    public int MaxSendBacklogBytes { get; set; } = 4 * 1024 * 1024;
}

public sealed class StrategyOptions
{
    /// <summary>Order list at one price level: a type name in a plugin without its "OrderList" suffix.</summary>
    public string OrderList { get; set; } = "IntrusiveList";

    /// <summary>Price-level index per side: a type name without its "LevelIndex" suffix.</summary>
    public string LevelIndex { get; set; } = "SortedArray";

    /// <summary>Market-data synchronisation: a type name without its "MarketDataStore" suffix.</summary>
    public string MarketData { get; set; } = "SeqLock";

    /// <summary>Folder of strategy plugin assemblies; relative paths are from the host's own folder.</summary>
    public string PluginDirectory { get; set; } = "plugins";
}

public sealed class PipelineOptions
{
    /// <summary>Threaded (a thread per stage, the default) or Inline (one polling thread runs every stage).</summary>
    public string Mode { get; set; } = "Threaded";

    /// <summary>Slots in the inbound (command) ring; a power of two.</summary>
    public int InboundRingSize { get; set; } = 1 << 16;

    /// <summary>Slots in the outbound (event) ring; a power of two.</summary>
    public int OutboundRingSize { get; set; } = 1 << 16;

    /// <summary>
    /// Wait strategy of the matcher thread: BusySpin, Yielding, Sleeping or Blocking. In Inline mode, how the polling
    /// thread idles between passes that found nothing (Blocking is not allowed there).
    /// </summary>
    public string MatcherWait { get; set; } = "Blocking";

    /// <summary>Wait strategy of the journaller thread.</summary>
    public string JournalWait { get; set; } = "Blocking";

    /// <summary>Wait strategy of the sender thread.</summary>
    public string SenderWait { get; set; } = "Blocking";

    /// <summary>CPU the matcher thread (in Inline mode, the polling thread) is pinned to; -1 leaves it unpinned.</summary>
    public int MatcherCpu { get; set; } = -1;

    /// <summary>Order slots the engine allocates at start.</summary>
    public int InitialOrderCapacity { get; set; } = 1 << 16;

    /// <summary>
    /// Client order ids the venue can take in one trading day, all sessions together (ids are unique per session per
    /// day). Allocated at start, 104 to 120 bytes per id: the keys (40 bytes) and the orders they name (48) are backed by
    /// memory as ids are used, the table (16 to 32 bytes per id) soon in full, since groups land all over it. Once used up, new orders and
    /// replaces are rejected until the next trading day (<see cref="TradingDayOptions"/>); cancels still work.
    /// </summary>
    public int MaxClOrdIdsPerDay { get; set; } = 1 << 22;

    /// <summary>Write per-stage Stopwatch timestamps (tags 7001-7004) into ExecutionReports, for the load client.</summary>
    public bool StageTimestamps { get; set; }

    /// <summary>
    /// At start, write once to every page of the engine's tables, the rings and in-memory session stores, so that the
    /// order path never takes a first-write page fault (5-15 µs each on a VM whose host backs memory lazily). Makes that
    /// memory resident: about 450 MiB with the default MaxClOrdIdsPerDay and ring sizes (about 104 bytes per id), plus
    /// 72 MiB per in-memory session store at the default size.
    /// </summary>
    public bool PreFault { get; set; } = true;

    /// <summary>Before accepting connections, run a scripted session through a scratch gateway and engine so the first
    /// real orders do not pay for compiling the code (<see cref="Venue.VenueWarmup"/>).</summary>
    public bool Warmup { get; set; } = true;
}

public sealed class JournalOptions
{
    /// <summary>Journal file; relative paths are from the working directory.</summary>
    public string Path { get; set; } = "data/journal.bin";

    /// <summary>When to fsync: EveryBatch, Periodic or Never.</summary>
    public string Fsync { get; set; } = "EveryBatch";

    /// <summary>
    /// With Periodic: how long a committed record may wait for its fsync. While orders flow a batch's commit syncs once
    /// it has passed; after the last batch before a pause the writer's thread syncs in its idle time (the Inline polling
    /// thread in an idle pass, the Threaded journaller after waiting this long for a batch), so at most about twice this.
    /// </summary>
    public int FsyncIntervalMilliseconds { get; set; } = 10;

    /// <summary>
    /// Records not to replay at start, as "sequence:checksum" items, comma-separated ("" for none). Only for a record the
    /// venue refused to replay because the engine threw on it (the refusal prints the item): that command is then never applied,
    /// and the skip is recorded beside the journal (journal.bin.skipped), so later starts make it with or without this
    /// setting. A number past the journal's end refuses the start, so a forgotten setting cannot skip a record written later.
    /// </summary>
    public string SkipRecords { get; set; } = "";
}

public sealed class TradingDayOptions
{
    /// <summary>
    /// UTC time of day at which a trading day begins, "HH:mm" or "HH:mm:ss" (00:00 to 23:59:59). The venue then
    /// journals a new-trading-day command: resting Day orders expire and the day's client order ids may be used again.
    /// </summary>
    public string StartsAt { get; set; } = "00:00";
}

public sealed class MarketDataOptions
{
    /// <summary>How often the publisher thread looks for changed books.</summary>
    public int PublishIntervalMicroseconds { get; set; } = 1000;
}

public sealed class SessionOptions
{
    /// <summary>The name of a session's store file in its <see cref="StorePath"/> folder.</summary>
    public static string StoreFileName(string senderCompId, string targetCompId) => $"{senderCompId}-{targetCompId}.session";

    /// <summary>The venue's CompID on this session (the client's TargetCompID).</summary>
    public string SenderCompId { get; set; } = "EXCH";

    /// <summary>The client's CompID (the client's SenderCompID).</summary>
    public string TargetCompId { get; set; } = "";

    public int HeartBtInt { get; set; } = 30;

    /// <summary>Folder of this session's sequence numbers and sent messages; empty keeps them in memory only.</summary>
    public string StorePath { get; set; } = "data/sessions";

    /// <summary>When the session store fsyncs: Always, Batch or Never.</summary>
    public string StoreFsync { get; set; } = "Batch";

    /// <summary>
    /// With an empty StorePath: MiB of sent messages kept in memory for resends (the most recent that fit; older ones
    /// are gap-filled). Written through once at start when <see cref="PipelineOptions.PreFault"/> is on, so sending
    /// never page-faults.
    /// </summary>
    public int MemoryStoreMegabytes { get; set; } = 64;

    /// <summary>
    /// Most application messages a logon may send per second, 0 (no limit) to 1,000,000: a quiet second's allowance at
    /// once, then one per 1/limit of a second. A new order, replace, status request or market-data subscription past it
    /// gets a BusinessMessageReject; cancels, mass cancels and unsubscribes are never refused, but count.
    /// </summary>
    public int MaxApplicationMessagesPerSecond { get; set; }

    /// <summary>
    /// What the session's orders do when they would trade with its own resting orders: None (they trade),
    /// CancelIncoming, CancelResting or CancelBoth.
    /// </summary>
    public string SelfTradePrevention { get; set; } = "None";

    /// <summary>
    /// Cancel on disconnect: when a logon of this session ends, however it ends, every order it has resting is canceled
    /// (GoodTillCancel ones too); a new Logon is refused until that cancel is in the ring. Off by default.
    /// </summary>
    public bool CancelOnDisconnect { get; set; }
}

public sealed class InstrumentOptions
{
    public string Symbol { get; set; } = "";

    /// <summary>Decimal places of one price unit; FIX prices with more non-zero decimals are rejected.</summary>
    public int PriceDecimals { get; set; } = 4;

    /// <summary>Minimum price increment as a decimal string, e.g. "0.01".</summary>
    public string TickSize { get; set; } = "0.01";

    public long LotSize { get; set; } = 1;

    /// <summary>Lowest accepted price as a decimal string.</summary>
    public string MinPrice { get; set; } = "0.01";

    /// <summary>Highest accepted price as a decimal string.</summary>
    public string MaxPrice { get; set; } = "10000";

    /// <summary>Largest accepted order quantity (a fat-finger limit); larger orders are rejected with OrdRejReason 13.</summary>
    public long MaxOrderQuantity { get; set; } = 1_000_000_000;
}
