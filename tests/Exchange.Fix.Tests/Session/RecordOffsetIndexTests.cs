using Exchange.Fix.Session;
using Exchange.Tests.Shared;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// <see cref="RecordOffsetIndex"/>: offsets read back by number across chunk boundaries, numbers never set read as
/// absent, a far number costs one chunk, and a prepared chunk makes the crossing store allocate nothing.
/// </summary>
public sealed class RecordOffsetIndexTests
{
    private const int Chunk = RecordOffsetIndex.ChunkEntries;

    [Fact]
    public void Offsets_read_back_by_number_across_chunks()
    {
        var index = new RecordOffsetIndex();
        for (int seq = 1; seq <= (3 * Chunk) + 5; seq++)
        {
            index.Set(seq, seq * 100L);
        }

        for (int seq = 1; seq <= (3 * Chunk) + 5; seq++)
        {
            Assert.True(index.TryGet(seq, out long offset));
            Assert.Equal(seq * 100L, offset);
        }

        index.Set(7, 0); // offset 0 is a real offset (the file's first record), not "absent"
        Assert.True(index.TryGet(7, out long first));
        Assert.Equal(0, first);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(Chunk + 1)]
    [InlineData(int.MaxValue)]
    [InlineData(-1)]
    [InlineData(int.MinValue)]
    public void A_number_never_set_is_absent(int seq)
    {
        var index = new RecordOffsetIndex();
        index.Set(1, 10);
        Assert.False(index.TryGet(seq, out _));
    }

    [Fact]
    public void A_far_number_costs_one_chunk_not_an_array_up_to_it()
    {
        var index = new RecordOffsetIndex();
        long before = GC.GetAllocatedBytesForCurrentThread();
        index.Set(int.MaxValue, 42);
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.True(index.TryGet(int.MaxValue, out long offset));
        Assert.Equal(42, offset);
        Assert.False(index.TryGet(int.MaxValue - 1, out _));
        // One chunk and a table of chunk references up to it (~1 MiB here), where a flat array would need 16 GiB.
        long table = ((long)(int.MaxValue / Chunk) + 1) * IntPtr.Size;
        Assert.InRange(allocated, Chunk * sizeof(long), (Chunk * sizeof(long)) + table + 1024);
    }

    [Fact]
    public void The_next_chunk_is_readied_a_quarter_chunk_ahead_one_page_per_call()
    {
        var index = new RecordOffsetIndex();
        int near = Chunk - RecordOffsetIndex.PrepareAhead;
        Assert.False(index.NeedsPrepare(1));
        Assert.False(index.NeedsPrepare(near - 1));
        Assert.True(index.NeedsPrepare(near));

        int calls = 0;
        while (index.Prepare(near))
        {
            calls++;
            Assert.False(index.TryGet(Chunk, out _)); // readied, still empty
        }

        Assert.Equal(RecordOffsetIndex.PrepareCallsPerChunk, calls);
        Assert.False(index.NeedsPrepare(near));
        Assert.False(index.NeedsPrepare(Chunk + 1));
    }

    [Fact]
    public void A_missing_chunk_of_the_next_number_itself_is_readied_first()
    {
        // As after reopening a store whose numbering moved on without storing (heartbeats, market data): the index has
        // only the first chunk, and the next number is in a later one.
        var index = new RecordOffsetIndex();
        int next = (2 * Chunk) - RecordOffsetIndex.PrepareAhead + 10; // its look-ahead is in the chunk after its own
        Assert.True(index.NeedsPrepare(next));
        for (int call = 0; call < RecordOffsetIndex.PrepareCallsPerChunk; call++)
        {
            Assert.True(index.Prepare(next));
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        index.Set(next, 5); // its own chunk is there: no allocation
        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.True(index.NeedsPrepare(next)); // the look-ahead's is still to come
    }

    [Fact]
    public void A_store_into_a_chunk_still_being_readied_takes_that_chunk()
    {
        var index = new RecordOffsetIndex();
        Assert.True(index.Prepare(Chunk - 1)); // allocates the next chunk; no page written yet
        long before = GC.GetAllocatedBytesForCurrentThread();
        index.Set(Chunk, 7);
        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.True(index.TryGet(Chunk, out long offset));
        Assert.Equal(7, offset);
        Assert.False(index.NeedsPrepare(Chunk + 1));
    }

    [Fact]
    public void Near_the_top_of_the_numbering_the_last_chunk_is_readied()
    {
        var index = new RecordOffsetIndex();
        Assert.True(index.NeedsPrepare(int.MaxValue - 1));
        while (index.Prepare(int.MaxValue - 1))
        {
        }

        Assert.False(index.NeedsPrepare(int.MaxValue));
        index.Set(int.MaxValue, 3);
        Assert.True(index.TryGet(int.MaxValue, out long offset));
        Assert.Equal(3, offset);
    }
}

/// <summary>The order path's side of <see cref="RecordOffsetIndex"/>: once prepared, a store into the next chunk allocates nothing.</summary>
[Collection(ZeroAllocationCollection.Name)]
public sealed class RecordOffsetIndexAllocationTests
{
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Crossing_into_a_prepared_chunk_allocates_nothing(bool prepared)
    {
        var index = new RecordOffsetIndex();
        int first = RecordOffsetIndex.ChunkEntries - 10;
        index.Set(first - 1, 1); // warm the path
        if (prepared)
        {
            while (index.Prepare(first))
            {
            }
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int seq = first; seq < first + 20; seq++)
        {
            index.Set(seq, seq);
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        if (prepared)
        {
            Assert.Equal(0, allocated);
        }
        else
        {
            Assert.True(allocated >= RecordOffsetIndex.ChunkEntries * sizeof(long), $"unprepared crossing allocated {allocated} bytes");
        }
    }
}
