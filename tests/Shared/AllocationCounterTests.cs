using System.Runtime;
using Xunit;

namespace Exchange.Tests.Shared;

/// <summary>
/// The zero-allocation tests trust <see cref="GC.GetAllocatedBytesForCurrentThread"/> to stay put while the measured
/// thread allocates nothing. That holds only without background collections (see tests/Directory.Build.props), so
/// this checks the setting reached the test host and that the counter stays exact while another thread forces
/// gen2 collections: with concurrent GC on, the stress case below saw deltas of up to 8 KiB.
/// </summary>
[Collection(ZeroAllocationCollection.Name)]
public class AllocationCounterTests
{
    [Fact]
    public void TestHost_UsesBlockingCollections()
    {
        Assert.False(GCSettings.IsServerGC);
        Assert.Equal(GCLatencyMode.Batch, GCSettings.LatencyMode); // Interactive means concurrent GC is on
    }

    [Fact]
    public void Counter_StaysExact_WhileAnotherThreadForcesGen2Collections()
    {
        int stop = 0;
        var collector = new Thread(() =>
        {
            var survivors = new List<byte[]>();
            while (Volatile.Read(ref stop) == 0)
            {
                for (int i = 0; i < 100; i++)
                {
                    survivors.Add(new byte[256]);
                }

                if (survivors.Count > 20_000)
                {
                    survivors.Clear();
                }

                // blocking: false asks for a background collection where concurrent GC is enabled.
                GC.Collect(2, GCCollectionMode.Forced, blocking: false);
            }
        })
        { IsBackground = true };
        collector.Start();

        long sum = 0;
        long worst = 0;
        int collectionsBefore = GC.CollectionCount(2);
        var elapsed = System.Diagnostics.Stopwatch.StartNew();
        try
        {
            // At least 100 rounds, and on until the collector has forced its collections: on a loaded machine it may get
            // no CPU during the first hundred, and the check below would then say nothing about the counter.
            for (int round = 0; round < 100 || (GC.CollectionCount(2) - collectionsBefore <= 10 && elapsed.Elapsed < TimeSpan.FromSeconds(60)); round++)
            {
                GC.KeepAlive(new byte[24 + (round % 100)]); // leave this thread a partly used allocation context
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int i = 0; i < 500_000; i++)
                {
                    sum += i ^ (sum >> 3);
                }

                worst = Math.Max(worst, GC.GetAllocatedBytesForCurrentThread() - before);
            }
        }
        finally
        {
            Volatile.Write(ref stop, 1);
            collector.Join();
        }

        Assert.True(GC.CollectionCount(2) - collectionsBefore > 10, "the collector thread should have forced gen2 collections");
        Assert.Equal(0, worst);
        s_sink = sum; // the loop's result is used, so the JIT keeps the loop
    }

    private static long s_sink;
}
