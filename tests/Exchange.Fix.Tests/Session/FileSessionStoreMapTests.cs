using System.Text;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// The file store's memory map: records cross many small map chunks, and the file a killed process leaves (extended
/// ahead, zero-filled, never trimmed) replays to exactly what was stored. "Killed" is a copy of the file taken while the
/// store is open: the page cache is what survives a SIGKILL.
/// </summary>
public sealed class FileSessionStoreMapTests : IDisposable
{
    private const long SmallChunk = 4096;
    private readonly TempStoreDirectory _directory = new();

    private string StorePath => _directory.StorePath;

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void Messages_across_many_map_chunks_read_back_before_and_after_a_crash()
    {
        string crashed = StorePath + ".crashed";
        var random = new Random(99);
        var bodies = new Dictionary<int, byte[]>();
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Never, mapChunkBytes: SmallChunk))
        {
            for (int seq = 1; seq <= 500; seq++)
            {
                byte[] body = new byte[random.Next(1, 900)];
                random.NextBytes(body);
                bodies[seq] = body;
                store.StoreOutbound(seq, "8"u8, seq, body);
                store.SetNextTargetSeqNum(seq + 10);
            }

            foreach ((int seq, byte[] body) in bodies)
            {
                Assert.True(store.TryGetOutbound(seq, out StoredMessage message));
                Assert.Equal(body, message.Body.ToArray());
            }

            File.Copy(StorePath, crashed);
        }

        Assert.True(new FileInfo(crashed).Length > new FileInfo(StorePath).Length, "a live store is extended ahead; dispose trims it");
        foreach (string path in new[] { StorePath, crashed })
        {
            using var reopened = new FileSessionStore(path, FsyncPolicy.Never, mapChunkBytes: SmallChunk);
            Assert.Equal(501, reopened.NextSenderSeqNum);
            Assert.Equal(510, reopened.NextTargetSeqNum);
            foreach ((int seq, byte[] body) in bodies)
            {
                Assert.True(reopened.TryGetOutbound(seq, out StoredMessage message));
                Assert.Equal(seq, message.SendingTimeNanos);
                Assert.Equal(body, message.Body.ToArray());
            }
        }
    }

    [Fact]
    public void A_record_torn_by_a_crash_is_dropped_and_appends_continue_after_the_last_good_one()
    {
        string crashed = StorePath + ".crashed";
        long goodEnd;
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Never, mapChunkBytes: SmallChunk))
        {
            store.StoreOutbound(1, "8"u8, 1, Encoding.ASCII.GetBytes("37=A\u0001"));
            store.StoreOutbound(2, "8"u8, 2, Encoding.ASCII.GetBytes("37=B\u0001"));
            File.Copy(StorePath, crashed);
        }

        goodEnd = new FileInfo(StorePath).Length;

        // Half a record after the last good one: a payload with no length or CRC yet, as a kill mid-copy leaves it.
        using (var file = new FileStream(crashed, FileMode.Open, FileAccess.Write))
        {
            file.Position = goodEnd + 8;
            file.Write("\u000337=C"u8);
        }

        using (var reopened = new FileSessionStore(crashed, FsyncPolicy.Never, mapChunkBytes: SmallChunk))
        {
            Assert.Equal(3, reopened.NextSenderSeqNum);
            Assert.False(reopened.TryGetOutbound(3, out _));
            reopened.StoreOutbound(3, "8"u8, 3, Encoding.ASCII.GetBytes("37=D\u0001"));
        }

        using var again = new FileSessionStore(crashed, FsyncPolicy.Never);
        Assert.Equal(4, again.NextSenderSeqNum);
        Assert.True(again.TryGetOutbound(3, out StoredMessage third));
        Assert.Equal("37=D\u0001", Encoding.ASCII.GetString(third.Body));
    }
}
