using Exchange.Fix.Session;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// <see cref="FileSessionStore.PrepareNextRecord"/>: pages past the stored records are readied without changing a byte
/// of the file, readied again once records reach past them or an fsync makes them fault again, and a store killed right
/// after a preparation (the file copied while open) reads back exactly what was stored. The fault it saves is measured by
/// the journal's tests (the same <see cref="Core.Storage.AppendMappedFile.PrepareAhead"/>).
/// </summary>
public sealed class FileSessionStorePrepareTests : IDisposable
{
    private const long SmallChunk = 4096;
    private readonly TempStoreDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void Preparing_changes_no_byte_and_a_killed_store_reads_back_what_was_stored()
    {
        string crashed = _directory.StorePath + ".crashed";
        var bodies = new List<byte[]>();
        int prepares = 0;
        using (var store = new FileSessionStore(_directory.StorePath, FsyncPolicy.Never, mapChunkBytes: SmallChunk))
        {
            for (int seq = 1; seq <= 60; seq++)
            {
                byte[] body = new byte[300];
                Array.Fill(body, (byte)('A' + (seq % 26)));
                bodies.Add(body);
                store.StoreOutbound(seq, "8"u8, seq, body);
                if (store.NeedsPrepare)
                {
                    byte[] before = SharedFile.ReadAll(_directory.StorePath);
                    Assert.True(store.PrepareNextRecord());
                    byte[] after = SharedFile.ReadAll(_directory.StorePath);

                    // Not a byte changed; the file may have been extended (with zeros) to map the prepared pages.
                    Assert.Equal(before, after.AsSpan(0, before.Length).ToArray());
                    Assert.True(after.AsSpan(before.Length).IndexOfAnyExcept((byte)0) < 0);
                    prepares++;
                }

                Assert.False(store.NeedsPrepare);
                Assert.False(store.PrepareNextRecord());
            }

            File.Copy(_directory.StorePath, crashed);
        }

        // ~320 bytes a record against 1 KiB prepared ahead: a new preparation every few records, not every one.
        Assert.InRange(prepares, 60 * 320 / 4096, 30);
        using var reopened = new FileSessionStore(crashed, FsyncPolicy.Never, mapChunkBytes: SmallChunk);
        Assert.Equal(61, reopened.NextSenderSeqNum);
        for (int seq = 1; seq <= 60; seq++)
        {
            Assert.True(reopened.TryGetOutbound(seq, out StoredMessage message));
            Assert.Equal(bodies[seq - 1], message.Body.ToArray());
        }
    }

    [Fact]
    public void An_fsync_makes_the_next_record_need_preparing_again()
    {
        using var store = new FileSessionStore(_directory.StorePath, FsyncPolicy.Always, mapChunkBytes: SmallChunk);
        Assert.True(store.PrepareNextRecord());
        Assert.False(store.NeedsPrepare);

        store.StoreOutbound(1, "8"u8, 1, new byte[10]); // Always: synced at once

        Assert.True(store.NeedsPrepare);
        Assert.True(store.PrepareNextRecord());
    }

    [Fact]
    public void The_offset_index_is_prepared_ahead_and_every_message_reads_back_after_reopening()
    {
        int count = RecordOffsetIndex.ChunkEntries + 100;
        int indexPreparations = 0;
        using (var store = new FileSessionStore(_directory.StorePath, FsyncPolicy.Never))
        {
            for (int seq = 1; seq <= count; seq++)
            {
                store.StoreOutbound(seq, "8"u8, seq, BitConverter.GetBytes(seq));
                while (store.NeedsPrepare)
                {
                    // The file's pages come first; the index's next chunk when only it is missing.
                    long before = GC.GetAllocatedBytesForCurrentThread();
                    Assert.True(store.PrepareNextRecord());
                    indexPreparations += GC.GetAllocatedBytesForCurrentThread() - before >= RecordOffsetIndex.ChunkEntries * sizeof(long) ? 1 : 0;
                }
            }

            Assert.Equal(1, indexPreparations); // the second chunk, a quarter chunk before it was reached
        }

        using var reopened = new FileSessionStore(_directory.StorePath, FsyncPolicy.Never);
        Assert.Equal(count + 1, reopened.NextSenderSeqNum);
        foreach (int seq in new[] { 1, RecordOffsetIndex.ChunkEntries - 1, RecordOffsetIndex.ChunkEntries, count })
        {
            Assert.True(reopened.TryGetOutbound(seq, out StoredMessage message));
            Assert.Equal(seq, BitConverter.ToInt32(message.Body));
        }

        Assert.False(reopened.TryGetOutbound(count + 1, out _));
    }

    [Fact]
    public void A_memory_store_never_needs_preparing()
    {
        using var store = new MemorySessionStore();
        store.StoreOutbound(1, "8"u8, 1, new byte[10]);
        ISessionStore asStore = store;
        Assert.False(asStore.NeedsPrepare);
        Assert.False(asStore.PrepareNextRecord());
    }
}
