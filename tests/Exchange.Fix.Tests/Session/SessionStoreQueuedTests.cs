using System.Text;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// The stores' queued messages (<see cref="ISessionStore.IsQueued"/>): stored while no client was logged on and not
/// written to one since. A ResendRequest's delivery removes them; a reset keeps them, renumbered behind the reply Logon,
/// because the client has never seen them.
/// </summary>
public sealed class SessionStoreQueuedTests : IDisposable
{
    private const long ResetTime = 9_000;

    private readonly TempStoreDirectory _directory = new();

    private string StorePath => _directory.StorePath;

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string> Stores => ["memory", "file"];

    private ISessionStore Open(string kind) => kind == "file" ? new FileSessionStore(StorePath, FsyncPolicy.Never) : new MemorySessionStore();

    private static byte[] Body(int i) => Encoding.ASCII.GetBytes($"37=ORD{i}\u000117=EX{i}\u0001");

    private static string BodyAt(ISessionStore store, int seq) =>
        store.TryGetOutbound(seq, out StoredMessage m) ? Encoding.ASCII.GetString(m.Body) : "(none)";

    /// <summary>
    /// 1, 2 written live; 3, 4 queued (the client left); 5 live again after a Logon that did not resend 3 and 4;
    /// 6, 7 queued; 8 queued then resent. Reports carry event ids 11..18.
    /// </summary>
    private static void StoreHistory(ISessionStore store)
    {
        store.SetLastEventId(0);
        bool[] queued = [false, false, true, true, false, true, true, true];
        for (int seq = 1; seq <= 8; seq++)
        {
            store.StoreOutbound(seq, "8"u8, seq * 100, Body(seq), eventId: 10 + seq, queued: queued[seq - 1]);
        }

        store.MarkDelivered(8, 8);
    }

    [Theory]
    [MemberData(nameof(Stores))]
    public void Queued_messages_are_those_stored_queued_and_not_delivered_since(string kind)
    {
        using ISessionStore store = Open(kind);
        StoreHistory(store);
        for (int seq = 9; seq <= 11; seq++)
        {
            store.StoreOutbound(seq, "8"u8, seq * 100, Body(seq), queued: true);
        }

        Assert.Equal([3, 4, 6, 7, 9, 10, 11], Enumerable.Range(0, 13).Where(store.IsQueued));
        store.MarkDelivered(4, 6);
        Assert.Equal([3, 7, 9, 10, 11], Enumerable.Range(0, 13).Where(store.IsQueued));
        store.MarkDelivered(10, 10);
        Assert.Equal([3, 7, 9, 11], Enumerable.Range(0, 13).Where(store.IsQueued));
    }

    [Theory]
    [MemberData(nameof(Stores))]
    public void A_reset_keeps_the_queued_messages_in_order_renumbered_from_the_given_number(string kind)
    {
        using ISessionStore store = Open(kind);
        StoreHistory(store);
        store.SetNextTargetSeqNum(40);

        store.Reset(firstQueuedSeqNum: 2, ResetTime);

        Assert.Equal((6, 1, 18L), (store.NextSenderSeqNum, store.NextTargetSeqNum, store.LastEventId));
        Assert.Equal(["(none)", "37=ORD3\u000117=EX3\u0001", "37=ORD4\u000117=EX4\u0001", "37=ORD6\u000117=EX6\u0001", "37=ORD7\u000117=EX7\u0001", "(none)"],
            Enumerable.Range(1, 6).Select(seq => BodyAt(store, seq)));
        Assert.True(store.TryGetOutbound(2, out StoredMessage first));
        Assert.Equal((2, "8", ResetTime), (first.MsgSeqNum, Encoding.ASCII.GetString(first.MsgType), first.SendingTimeNanos));
        Assert.Equal([2, 3, 4, 5], Enumerable.Range(0, 10).Where(store.IsQueued));

        // Delivered after the reset: a second reset has nothing left to keep.
        store.MarkDelivered(2, 5);
        store.Reset(firstQueuedSeqNum: 2, ResetTime);
        Assert.Equal(2, store.NextSenderSeqNum);
        Assert.False(store.TryGetOutbound(2, out _));
    }

    [Fact]
    public void The_file_store_keeps_queued_and_delivered_marks_and_a_reset_across_reopening()
    {
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            StoreHistory(store);
            store.MarkDelivered(3, 3);
        }

        using (var reopened = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            Assert.Equal([4, 6, 7], Enumerable.Range(0, 10).Where(reopened.IsQueued));
            Assert.Equal(9, reopened.NextSenderSeqNum);
            reopened.Reset(firstQueuedSeqNum: 2, ResetTime);
            reopened.SetNextTargetSeqNum(2);
        }

        using var afterReset = new FileSessionStore(StorePath, FsyncPolicy.Never);
        Assert.Equal((5, 2, 18L), (afterReset.NextSenderSeqNum, afterReset.NextTargetSeqNum, afterReset.LastEventId));
        Assert.Equal([2, 3, 4], Enumerable.Range(0, 10).Where(afterReset.IsQueued));
        Assert.Equal(["37=ORD4\u000117=EX4\u0001", "37=ORD6\u000117=EX6\u0001", "37=ORD7\u000117=EX7\u0001"], Enumerable.Range(2, 3).Select(seq => BodyAt(afterReset, seq)));
        Assert.False(File.Exists(StorePath + ".reset"));
    }

    [Fact]
    public void A_torn_delivered_record_leaves_its_messages_queued_and_a_torn_queued_message_is_not_held()
    {
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            store.StoreOutbound(1, "8"u8, 1, Body(1), queued: true);
            store.StoreOutbound(2, "8"u8, 2, Body(2), queued: true);
            store.MarkDelivered(1, 2);
        }

        TearLastRecord();
        using (var reopened = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            // Sent once more by a later reset rather than lost: the resend may not have reached the client.
            Assert.Equal([1, 2], Enumerable.Range(0, 5).Where(reopened.IsQueued));
        }

        TearLastRecord(); // now the Delivered record is gone, so this tears message 2
        using var again = new FileSessionStore(StorePath, FsyncPolicy.Never);
        Assert.Equal([1], Enumerable.Range(0, 5).Where(again.IsQueued));
        Assert.False(again.TryGetOutbound(2, out _));
        Assert.Equal(2, again.NextSenderSeqNum);
    }

    [Fact]
    public void A_reset_the_process_did_not_finish_leaves_the_store_as_it_was_before_it()
    {
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            StoreHistory(store);
        }

        // What a crash before the rename leaves: the reset store written beside the real one.
        File.WriteAllBytes(StorePath + ".reset", [9, 0, 0, 0, 1, 2, 3, 4]);

        using var reopened = new FileSessionStore(StorePath, FsyncPolicy.Never);
        Assert.Equal(9, reopened.NextSenderSeqNum);
        Assert.Equal([3, 4, 6, 7], Enumerable.Range(0, 10).Where(reopened.IsQueued));
        Assert.False(File.Exists(StorePath + ".reset"));
    }

    [Fact]
    public void Sequence_number_ranges_split_and_join()
    {
        var set = new SeqNumRanges();
        foreach (int seq in (int[])[3, 4, 5, 9, 10, 7])
        {
            set.Add(seq);
        }

        Assert.Equal([new(3, 5), new(7, 7), new(9, 10)], set.Ranges.ToArray());
        set.Add(6);
        set.Add(8);
        Assert.Equal([new SeqNumRange(3, 10)], set.Ranges.ToArray());
        Assert.True(set.Remove(5, 6));
        Assert.Equal([new(3, 4), new(7, 10)], set.Ranges.ToArray());
        Assert.False(set.Remove(5, 6));
        Assert.True(set.Remove(1, 8));
        Assert.Equal([new SeqNumRange(9, 10)], set.Ranges.ToArray());
        Assert.True(set.Remove(9, 10));
        Assert.True(set.IsEmpty);
    }

    /// <summary>Cuts the file inside its last record, as a crash while writing it would.</summary>
    private void TearLastRecord()
    {
        byte[] bytes = File.ReadAllBytes(StorePath);
        int offset = 0;
        int last = 0;
        while (offset + 8 <= bytes.Length && BitConverter.ToInt32(bytes, offset) > 0)
        {
            last = offset;
            offset += 8 + BitConverter.ToInt32(bytes, offset);
        }

        using var file = new FileStream(StorePath, FileMode.Open);
        file.SetLength(last + 6);
    }
}
