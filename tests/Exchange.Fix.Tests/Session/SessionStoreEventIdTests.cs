using System.Text;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// The stores' record of the last engine report they hold (<see cref="ISessionStore.LastEventId"/>): what recovery
/// compares journalled events with to decide which reports a session never got.
/// </summary>
public sealed class SessionStoreEventIdTests : IDisposable
{
    private readonly TempStoreDirectory _directory = new();

    private string StorePath => _directory.StorePath;

    public void Dispose() => _directory.Dispose();

    private static byte[] Body(int i) => Encoding.ASCII.GetBytes($"37=ORD{i}\u000117=EX{i}\u0001");

    [Fact]
    public void A_new_file_store_cannot_tell_and_a_reopened_one_has_the_last_report_stored_with_an_event_id()
    {
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            Assert.Equal(ISessionStore.UnknownEventId, store.LastEventId);
            store.StoreOutbound(1, "8"u8, 1, Body(1), eventId: 7);
            store.StoreOutbound(2, "8"u8, 2, Body(2), eventId: 9);
            store.StoreOutbound(3, "j"u8, 3, Body(3));     // not an engine report: the position stays
            store.SetNextSenderSeqNum(5);                    // an admin message went out as 4
            Assert.Equal(9, store.LastEventId);
        }

        using var reopened = new FileSessionStore(StorePath, FsyncPolicy.Never);
        Assert.Equal(9, reopened.LastEventId);
        Assert.Equal(5, reopened.NextSenderSeqNum);
        Assert.True(reopened.TryGetOutbound(2, out StoredMessage report));
        Assert.Equal(("8", "37=ORD2\u000117=EX2\u0001"), (Encoding.ASCII.GetString(report.MsgType), Encoding.ASCII.GetString(report.Body)));
        Assert.True(reopened.TryGetOutbound(3, out StoredMessage plain));
        Assert.Equal("j", Encoding.ASCII.GetString(plain.MsgType));
    }

    [Fact]
    public void A_report_torn_by_a_crash_takes_its_event_id_with_it()
    {
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            store.StoreOutbound(1, "8"u8, 1, Body(1), eventId: 3);
            store.StoreOutbound(2, "8"u8, 2, Body(2), eventId: 4);
        }

        using (var file = new FileStream(StorePath, FileMode.Open))
        {
            file.SetLength(file.Length - 2);
        }

        // The message and its id are one record: the store never claims a report it does not hold.
        using var reopened = new FileSessionStore(StorePath, FsyncPolicy.Never);
        Assert.Equal(3, reopened.LastEventId);
        Assert.Equal(2, reopened.NextSenderSeqNum);
        Assert.False(reopened.TryGetOutbound(2, out _));
    }

    [Fact]
    public void The_position_alone_is_kept_and_a_sequence_reset_does_not_lose_it()
    {
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            store.SetLastEventId(0);
            Assert.Equal(0, store.LastEventId);
            store.StoreOutbound(1, "8"u8, 1, Body(1), eventId: 12);
            store.Reset(firstQueuedSeqNum: 1, sendingTimeNanos: 0);
            Assert.Equal(12, store.LastEventId);
        }

        using var reopened = new FileSessionStore(StorePath, FsyncPolicy.Never);
        Assert.Equal(12, reopened.LastEventId);
        Assert.Equal(1, reopened.NextSenderSeqNum);
        Assert.False(reopened.TryGetOutbound(1, out _));
    }

    [Fact]
    public void A_file_whose_messages_carry_no_event_id_cannot_tell()
    {
        using (var store = new FileSessionStore(StorePath, FsyncPolicy.Never))
        {
            store.StoreOutbound(1, "8"u8, 1, Body(1));
            store.StoreOutbound(2, "8"u8, 2, Body(2));
        }

        using var reopened = new FileSessionStore(StorePath, FsyncPolicy.Never);
        Assert.Equal(ISessionStore.UnknownEventId, reopened.LastEventId);
        Assert.Equal(3, reopened.NextSenderSeqNum);
    }

    [Fact]
    public void The_memory_store_starts_unknown_counts_reports_and_keeps_the_position_over_a_reset()
    {
        using var store = new MemorySessionStore();
        Assert.Equal(ISessionStore.UnknownEventId, store.LastEventId);
        store.SetLastEventId(0);
        store.StoreOutbound(1, "8"u8, 1, Body(1), eventId: 5);
        store.StoreOutbound(2, "9"u8, 2, Body(2));
        Assert.Equal(5, store.LastEventId);
        store.Reset(firstQueuedSeqNum: 1, sendingTimeNanos: 0);
        Assert.Equal(5, store.LastEventId);
    }
}
