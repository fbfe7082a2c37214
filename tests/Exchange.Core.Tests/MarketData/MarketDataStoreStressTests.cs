using Exchange.Core.MarketData;
using Exchange.Core.Strategies;
using Xunit;

namespace Exchange.Core.Tests.MarketData;

/// <summary>
/// One writer publishes while two readers snapshot the same books: no reader may ever see a torn depth, and the versions
/// a reader sees of one instrument never go backwards. Bounded by publish count, not time; readers stop when the writer
/// is done, after one last pass that must see every book's final publish.
/// </summary>
public sealed class MarketDataStoreStressTests
{
    private const int Instruments = 2;
    private const long Publishes = 200_000;
    private const int Readers = 2;

    public static TheoryData<string> Stores => MarketDataStores.Names();

    [Theory]
    [MemberData(nameof(Stores))]
    public void Readers_never_see_a_torn_or_older_depth(string store)
    {
        var sut = MarketDataStores.Create(store);
        sut.Initialize(Instruments);
        using var run = new Run(sut);

        var threads = new List<Thread> { new(run.Write) { IsBackground = true, Name = "md-writer" } };
        var readers = new ReaderResult[Readers];
        for (var r = 0; r < Readers; r++)
        {
            var result = readers[r] = new ReaderResult();
            threads.Add(new Thread(() => run.Read(result)) { IsBackground = true, Name = $"md-reader-{r}" });
        }

        threads.ForEach(t => t.Start());
        foreach (var thread in threads)
        {
            // A hang guard, not a timing assertion: a correct store finishes in well under a second here.
            Assert.True(thread.Join(TimeSpan.FromMinutes(2)), $"{thread.Name} did not finish");
        }

        Assert.Null(run.FirstError);
        Assert.All(readers, result => Assert.True(result.Reads >= Instruments, $"a reader made only {result.Reads} reads"));
    }

    /// <summary>Shared state of one stress run.</summary>
    private sealed class Run(IMarketDataStore store) : IDisposable
    {
        private readonly ManualResetEventSlim _start = new(false);
        private readonly CountdownEvent _ready = new(Readers);
        private volatile bool _writerDone;
        private string? _firstError;

        public string? FirstError => Volatile.Read(ref _firstError);

        public void Dispose()
        {
            _start.Dispose();
            _ready.Dispose();
            (store as IDisposable)?.Dispose();
        }

        public void Write()
        {
            _ready.Wait();
            _start.Set();
            var depth = default(BookDepth);
            for (long version = 1; version <= Publishes && FirstError is null; version++)
            {
                DepthPattern.Fill(ref depth, version, Instruments);
                store.Publish(depth);
            }

            _writerDone = true;
        }

        public void Read(ReaderResult result)
        {
            try
            {
                _ready.Signal();
                _start.Wait();
                var lastSeen = new long[Instruments];
                var depth = default(BookDepth);
                while (!_writerDone && FirstError is null)
                {
                    for (var instrument = 0; instrument < Instruments; instrument++)
                    {
                        ReadOne(instrument, ref depth, lastSeen, result);
                    }
                }

                // After the writer finished, each book must show its final publish.
                for (var instrument = 0; instrument < Instruments; instrument++)
                {
                    if (!ReadOne(instrument, ref depth, lastSeen, result) || depth.Version <= Publishes - Instruments)
                    {
                        Fail($"instrument {instrument}: final read saw version {depth.Version}, not the last publish");
                    }
                }
            }
#pragma warning disable CA1031 // a reader thread's failure must reach the test thread, whatever it is
            catch (Exception e)
#pragma warning restore CA1031
            {
                Fail(e.ToString());
            }
        }

        private bool ReadOne(int instrument, ref BookDepth depth, long[] lastSeen, ReaderResult result)
        {
            if (!store.TryRead(instrument, ref depth))
            {
                if (lastSeen[instrument] != 0)
                {
                    Fail($"instrument {instrument}: read failed after version {lastSeen[instrument]} was seen");
                }

                return false;
            }

            result.Reads++;
            if (result.Expected.Version != depth.Version)
            {
                // Computing the expected depth costs more than the copy; readers re-read one version many times, so
                // caching it keeps readers copying (and racing the writer) for more of their time.
                DepthPattern.Fill(ref result.Expected, depth.Version, Instruments);
            }

            if (DepthPattern.Compare(depth, result.Expected) is { } torn)
            {
                Fail($"torn depth: {torn}");
            }
            else if (depth.InstrumentId != instrument)
            {
                Fail($"asked for instrument {instrument}, got {depth.InstrumentId}");
            }
            else if (depth.Version < lastSeen[instrument])
            {
                Fail($"instrument {instrument}: version went back from {lastSeen[instrument]} to {depth.Version}");
            }

            lastSeen[instrument] = depth.Version;
            return true;
        }

        private void Fail(string message) => Interlocked.CompareExchange(ref _firstError, message, null);
    }

    private sealed class ReaderResult
    {
        public long Reads;
        public BookDepth Expected;
    }
}
