using System.Text;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

public sealed class FileSessionStoreTests : IDisposable
{
    private readonly TempStoreDirectory _directory = new();

    private string StorePath => _directory.StorePath;

    public void Dispose() => _directory.Dispose();

    private static byte[] Body(int i) => Encoding.ASCII.GetBytes($"37=ORD{i}\u000117=EX{i}\u0001");

    private static string BodyOf(in StoredMessage m) => Encoding.ASCII.GetString(m.Body);

    [Theory]
    [InlineData(FsyncPolicy.Always)]
    [InlineData(FsyncPolicy.Batch)]
    [InlineData(FsyncPolicy.Never)]
    public void Reopen_restores_sequence_numbers_and_stored_messages(FsyncPolicy policy)
    {
        using (var store = new FileSessionStore(StorePath, policy, batchSize: 3))
        {
            store.SetNextSenderSeqNum(2);        // an admin message went out as 1
            store.StoreOutbound(2, "8"u8, 1_000, Body(2));
            store.SetNextSenderSeqNum(4);        // 3 was admin
            store.StoreOutbound(4, "9"u8, 2_000, Body(4));
            store.SetNextTargetSeqNum(7);
        }

        using var reopened = new FileSessionStore(StorePath, policy);

        Assert.Equal(5, reopened.NextSenderSeqNum);
        Assert.Equal(7, reopened.NextTargetSeqNum);
        Assert.True(reopened.TryGetOutbound(2, out StoredMessage m2));
        Assert.Equal((2, "8", 1_000L, "37=ORD2\u000117=EX2\u0001"), (m2.MsgSeqNum, Encoding.ASCII.GetString(m2.MsgType), m2.SendingTimeNanos, BodyOf(m2)));
        Assert.True(reopened.TryGetOutbound(4, out StoredMessage m4));
        Assert.Equal("9", Encoding.ASCII.GetString(m4.MsgType));
        Assert.False(reopened.TryGetOutbound(1, out _));
        Assert.False(reopened.TryGetOutbound(3, out _));
    }

    [Fact]
    public void Torn_last_record_is_dropped_and_the_file_is_usable_afterwards()
    {
        using (var store = new FileSessionStore(StorePath))
        {
            for (int i = 1; i <= 5; i++)
            {
                store.StoreOutbound(i, "8"u8, i, Body(i));
            }
        }

        // Simulate a crash in the middle of the last append.
        using (var file = new FileStream(StorePath, FileMode.Open))
        {
            file.SetLength(file.Length - 3);
        }

        using (var reopened = new FileSessionStore(StorePath))
        {
            Assert.Equal(5, reopened.NextSenderSeqNum);
            Assert.True(reopened.TryGetOutbound(4, out StoredMessage m4));
            Assert.Equal("37=ORD4\u000117=EX4\u0001", BodyOf(m4));
            Assert.False(reopened.TryGetOutbound(5, out _));

            reopened.StoreOutbound(5, "8"u8, 55, Body(50));
        }

        using var again = new FileSessionStore(StorePath);
        Assert.Equal(6, again.NextSenderSeqNum);
        Assert.True(again.TryGetOutbound(5, out StoredMessage m5));
        Assert.Equal("37=ORD50\u000117=EX50\u0001", BodyOf(m5));
    }

    [Fact]
    public void Record_with_a_flipped_bit_fails_its_crc_and_ends_the_replay()
    {
        using (var store = new FileSessionStore(StorePath))
        {
            store.StoreOutbound(1, "8"u8, 1, Body(1));
            store.SetNextTargetSeqNum(9);
        }

        byte[] bytes = File.ReadAllBytes(StorePath);
        bytes[^2] ^= 0x10; // inside the last record's payload
        File.WriteAllBytes(StorePath, bytes);

        using var reopened = new FileSessionStore(StorePath);
        Assert.True(reopened.TryGetOutbound(1, out _));
        Assert.Equal(1, reopened.NextTargetSeqNum);
        Assert.Equal(2, reopened.NextSenderSeqNum);
    }

    [Fact]
    public void Batch_policy_writes_every_message_at_once_so_a_crash_before_the_fsync_loses_nothing()
    {
        string crashed = StorePath + ".crashed";
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Batch, batchSize: 1000))
        {
            store.StoreOutbound(1, "8"u8, 10, Body(1));
            Assert.True(new FileInfo(StorePath).Length > 0);

            // What a killed process leaves: the file as the OS has it, with no flush or dispose.
            File.Copy(StorePath, crashed);
            using (var recovered = new FileSessionStore(crashed))
            {
                Assert.True(recovered.TryGetOutbound(1, out StoredMessage survived));
                Assert.Equal("37=ORD1\u000117=EX1\u0001", BodyOf(survived));
                Assert.Equal(2, recovered.NextSenderSeqNum);
            }

            Assert.True(store.TryGetOutbound(1, out StoredMessage pending));
            Assert.Equal("37=ORD1\u000117=EX1\u0001", BodyOf(pending));

            store.Flush();
            Assert.True(new FileInfo(StorePath).Length > 0);
            Assert.True(store.TryGetOutbound(1, out StoredMessage flushed));
            Assert.Equal(10, flushed.SendingTimeNanos);
        }

        using var reopened = new FileSessionStore(StorePath);
        Assert.True(reopened.TryGetOutbound(1, out _));
    }

    [Fact]
    public void Many_messages_across_staging_buffer_boundaries_all_read_back()
    {
        var bodies = new Dictionary<int, byte[]>();
        var random = new Random(1234);
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            for (int seq = 1; seq <= 3000; seq++)
            {
                byte[] body = new byte[random.Next(1, 400)];
                random.NextBytes(body);
                bodies[seq] = body;
                store.StoreOutbound(seq, "8"u8, seq, body);
                store.SetNextTargetSeqNum(seq + 1);
            }

            Assert.True(store.TryGetOutbound(17, out StoredMessage live));
            Assert.True(live.Body.SequenceEqual(bodies[17]));
        }

        using var reopened = new FileSessionStore(StorePath);
        Assert.Equal(3001, reopened.NextSenderSeqNum);
        Assert.Equal(3001, reopened.NextTargetSeqNum);
        foreach (var (seq, body) in bodies)
        {
            Assert.True(reopened.TryGetOutbound(seq, out StoredMessage m));
            Assert.True(m.Body.SequenceEqual(body), $"seq {seq}");
        }
    }

    [Fact]
    public void Reset_truncates_and_survives_reopen()
    {
        using (var store = new FileSessionStore(StorePath))
        {
            store.StoreOutbound(1, "8"u8, 1, Body(1));
            store.SetNextTargetSeqNum(5);
            store.Reset(firstQueuedSeqNum: 1, sendingTimeNanos: 0);
            store.SetNextTargetSeqNum(2);
        }

        using var reopened = new FileSessionStore(StorePath);
        Assert.Equal(1, reopened.NextSenderSeqNum);
        Assert.Equal(2, reopened.NextTargetSeqNum);
        Assert.False(reopened.TryGetOutbound(1, out _));
    }

    [Fact]
    public void A_reset_that_cannot_put_its_file_in_place_leaves_a_store_that_refuses_use_instead_of_reading_a_closed_map()
    {
        if (OperatingSystem.IsWindows())
        {
            return; // the store's file cannot be removed while it is open there; the rename fails the same way below
        }

        var store = new FileSessionStore(StorePath, FsyncPolicy.Never);
        store.StoreOutbound(1, "8"u8, 1, Body(1), queued: true); // the reset copies it as number 2, so 2 is indexed

        // A directory where the store's file was: the reset's rename over it fails after the old file was closed.
        File.Delete(StorePath);
        Directory.CreateDirectory(StorePath);
        Assert.ThrowsAny<IOException>(() => store.Reset(firstQueuedSeqNum: 2, sendingTimeNanos: 0));

        InvalidOperationException refused = Assert.Throws<InvalidOperationException>(() => store.TryGetOutbound(2, out _));
        Assert.Contains("restart", refused.Message, StringComparison.Ordinal);
        Assert.Throws<InvalidOperationException>(() => store.StoreOutbound(2, "8"u8, 2, Body(2)));
        Assert.Throws<InvalidOperationException>(() => store.Reset(firstQueuedSeqNum: 2, sendingTimeNanos: 0));
        Assert.Throws<InvalidOperationException>(store.Flush);
        Assert.False(store.NeedsPrepare);
        Assert.False(store.PrepareNextRecord());
        store.Dispose(); // does not throw
    }

    [Fact]
    public void Restarted_venue_resumes_the_session_and_resends_messages_sent_before_the_restart()
    {
        var config = new SessionConfig(SessionHarness.Venue, SessionHarness.Client) { StorePath = StorePath };
        long firstSendingTime;
        using (var before = new SessionHarness(config, config.CreateStore()))
        {
            before.LogOn();
            firstSendingTime = before.Clock.UtcNowNanos;
            before.Session.SendApplication("8"u8, Body(2));
            before.Feed(TestMsg.Order(2));
        }

        using var after = new SessionHarness(config, config.CreateStore());
        Assert.Equal(3, after.Session.NextSenderSeqNum);
        Assert.Equal(3, after.Session.NextTargetSeqNum);

        Assert.Equal(LogonRouting.Accepted, after.Connect(TestMsg.Logon(3)));
        Assert.Equal(3, Assert.Single(after.Sent).SeqNum);
        after.Sent.Clear();

        after.Feed(TestMsg.ResendRequest(4, 1, 0));

        Assert.Equal(["4", "8", "4"], after.Sent.ConvertAll(m => m.MsgType));
        SentMessage er = after.Sent[1];
        Assert.Equal(2, er.SeqNum);
        Assert.Equal(firstSendingTime, er.GetLong(122));
        Assert.Equal("ORD2", er.Get(37));
    }
}
