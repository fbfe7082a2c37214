using Exchange.Fix.Dictionary;
using Exchange.Fix.Mapping;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

/// <summary>The gateway's shared, immutable collaborators, handed to each connection. Thread-safe.</summary>
internal sealed class GatewayServices
{
    /// <summary>Gateway-made ExecIDs start at 2^62 + the Unix-ns start time: above any engine event id and unique across restarts.</summary>
    private long _lastExecId;
    private long _rejectsSent;
    private long _overLimitRefusals;

    public GatewayServices(
        InstrumentDirectory instruments, IClock clock, ICommandPublisher publisher, IMarketDataRequestHandler marketData, GatewayOptions options, IGatewayLog log)
    {
        Instruments = instruments;
        Clock = clock;
        Publisher = publisher;
        MarketData = marketData;
        Options = options;
        Log = log;
        _lastExecId = (1L << 62) + clock.UtcNowNanos;
    }

    public InstrumentDirectory Instruments { get; }

    public FixDictionary Dictionary { get; } = FixDictionary.Fix44;

    public IClock Clock { get; }

    public ICommandPublisher Publisher { get; }

    public IMarketDataRequestHandler MarketData { get; }

    public GatewayOptions Options { get; }

    public IGatewayLog Log { get; }

    /// <summary>ExecID (17) for a reject the gateway answers itself, distinct from the engine's event ids.</summary>
    public long NextExecId() => Interlocked.Increment(ref _lastExecId);

    /// <summary>Rejects the gateway answered itself (see <see cref="IFixGateway.RejectsSent"/>).</summary>
    public long RejectsSent => Volatile.Read(ref _rejectsSent);

    /// <summary>Counts one reject the gateway answered itself; any connection's thread (off the accepted path).</summary>
    public void CountReject() => Interlocked.Increment(ref _rejectsSent);

    /// <summary>Application messages refused over a session's message limit (each answered with 35=j).</summary>
    public long OverLimitRefusals => Volatile.Read(ref _overLimitRefusals);

    public void CountOverLimitRefusal() => Interlocked.Increment(ref _overLimitRefusals);
}
