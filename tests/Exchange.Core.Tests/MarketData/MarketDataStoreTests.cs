using Exchange.Core.MarketData;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Core.Tests.MarketData;

/// <summary>Single-threaded behaviour every market-data store must share.</summary>
[Collection(ZeroAllocationCollection.Name)]
public sealed class MarketDataStoreTests
{
    public static TheoryData<string> Stores => MarketDataStores.Names();

    [Theory]
    [MemberData(nameof(Stores))]
    public void Nothing_is_read_before_the_first_publish(string store)
    {
        var sut = MarketDataStores.Create(store);
        sut.Initialize(2);
        var depth = default(BookDepth);
        depth.Version = -1;

        Assert.False(sut.TryRead(0, ref depth));
        Assert.Equal(-1, depth.Version); // a failed read leaves the destination alone
    }

    [Theory]
    [MemberData(nameof(Stores))]
    public void A_read_returns_the_latest_publish_of_that_instrument(string store)
    {
        const int instruments = 3;
        var sut = MarketDataStores.Create(store);
        sut.Initialize(instruments);
        var depth = default(BookDepth);
        for (long version = 1; version <= 10; version++)
        {
            DepthPattern.Fill(ref depth, version, instruments);
            sut.Publish(depth);
        }

        long[] latest = [9, 10, 8]; // versions 1..10 dealt round-robin: instrument = version % 3
        for (var instrument = 0; instrument < instruments; instrument++)
        {
            var read = default(BookDepth);
            Assert.True(sut.TryRead(instrument, ref read));
            Assert.Null(DepthPattern.FindInconsistency(read, instruments));
            Assert.Equal(instrument, read.InstrumentId);
            Assert.Equal(latest[instrument], read.Version);
        }
    }

    [Theory]
    [InlineData("SeqLockMarketDataStore")]
    [InlineData("LockMarketDataStore")]
    [InlineData("ReaderWriterLockMarketDataStore")]
    public void Publish_and_read_allocate_nothing_after_warm_up(string store)
    {
        const int instruments = 4;
        var sut = MarketDataStores.Create(store);
        sut.Initialize(instruments);
        var depth = default(BookDepth);
        var read = default(BookDepth);
        long version = 0;
        long checksum = 0;

        void Run(int operations)
        {
            for (var i = 0; i < operations; i++)
            {
                version++;
                depth.Version = version;
                depth.InstrumentId = DepthPattern.InstrumentOf(version, instruments);
                sut.Publish(depth);
                sut.TryRead(depth.InstrumentId, ref read);
                checksum += read.Version;
            }
        }

        Run(1_000);
        var before = GC.GetAllocatedBytesForCurrentThread();
        Run(100_000);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(0, allocated);
        Assert.Equal(101_000L * 101_001 / 2, checksum); // every read saw the publish just made
    }
}
