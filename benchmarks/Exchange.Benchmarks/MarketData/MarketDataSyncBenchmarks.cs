using BenchmarkDotNet.Attributes;
using Exchange.Core.MarketData;
using Exchange.Core.Plugins;
using Exchange.Core.Strategies;
using Exchange.Strategies.MarketData;

namespace Exchange.Benchmarks.MarketData;

/// <summary>
/// Strategy family 3 compared on the same work: publishing a full 10-level depth (the matcher's cost) and reading one
/// (the market-data publisher's cost), with another reader thread taking snapshots of the same books throughout.
/// </summary>
/// <remarks>
/// The background reader backs off after each pass over the books (spin, then yield) so it contends for the locks and
/// cache lines the way a market-data publisher would without starving a 2-core machine. Allocation figures are
/// process-wide in BenchmarkDotNet, which is fine here: the background reader allocates nothing with any store.
/// Stores are resolved by their configuration names, as the host does.
/// </remarks>
[MemoryDiagnoser]
public class MarketDataSyncBenchmarks
{
    private const int Instruments = 16;

    private static readonly StrategyCatalog Catalog = StrategyCatalog.FromTypes(
    [
        typeof(VolatileSnapshotMarketDataStore),
        typeof(InterlockedSnapshotMarketDataStore),
        typeof(LockMarketDataStore),
        typeof(ReaderWriterLockMarketDataStore),
        typeof(SeqLockMarketDataStore),
    ]);

    private IMarketDataStore _store = null!;
    private BookDepth _depth;
    private BookDepth _read;
    private long _version;
    private Thread? _backgroundReader;
    private volatile bool _stopReader;

    [Params("VolatileSnapshot", "InterlockedSnapshot", "Lock", "ReaderWriterLock", "SeqLock")]
    public string Store { get; set; } = "SeqLock";

    [GlobalSetup]
    public void Setup()
    {
        _store = Catalog.CreateMarketDataStore(Store);
        _store.Initialize(Instruments);
        _depth.BidCount = BookDepth.MaxLevels;
        _depth.AskCount = BookDepth.MaxLevels;
        for (var k = 0; k < BookDepth.MaxLevels; k++)
        {
            _depth.Bids[k] = new DepthLevel { Price = 100_000 - k, Quantity = 100 * (k + 1), OrderCount = k + 1 };
            _depth.Asks[k] = new DepthLevel { Price = 100_001 + k, Quantity = 100 * (k + 1), OrderCount = k + 1 };
        }

        Publish(); // every book has a depth before anyone reads
        _stopReader = false;
        _backgroundReader = new Thread(ReadInBackground) { IsBackground = true, Name = "md-background-reader" };
        _backgroundReader.Start();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _stopReader = true;
        _backgroundReader?.Join();
        (_store as IDisposable)?.Dispose();
    }

    /// <summary>One publish per book; reported per publish.</summary>
    [Benchmark(OperationsPerInvoke = Instruments)]
    public void Publish()
    {
        for (var instrument = 0; instrument < Instruments; instrument++)
        {
            _depth.InstrumentId = instrument;
            _depth.Version = ++_version;
            _depth.CommandSequence = _version;
            _store.Publish(_depth);
        }
    }

    /// <summary>One read per book; reported per read.</summary>
    [Benchmark(OperationsPerInvoke = Instruments)]
    public long Read()
    {
        long versions = 0;
        for (var instrument = 0; instrument < Instruments; instrument++)
        {
            _store.TryRead(instrument, ref _read);
            versions += _read.Version;
        }

        return versions;
    }

    private void ReadInBackground()
    {
        var depth = default(BookDepth);
        var backoff = default(SpinWait);
        while (!_stopReader)
        {
            for (var instrument = 0; instrument < Instruments; instrument++)
            {
                _store.TryRead(instrument, ref depth);
            }

            // Spins for the first few passes, then yields every pass (never Sleep(1), which would remove contention).
            backoff.SpinOnce(sleep1Threshold: -1);
        }
    }
}
