namespace Exchange.Fix.Session;

/// <summary>
/// An in-process <see cref="ISessionStore"/> for tests and benchmarks. Messages are appended into native memory
/// chunks (<see cref="OutboundMessageLog"/>): storing never allocates managed memory and never copies earlier messages.
/// Nothing survives the process; memory grows with the session until <see cref="Reset"/>.
/// </summary>
public sealed class MemorySessionStore : ISessionStore
{
    private readonly OutboundMessageLog _log;

    public MemorySessionStore()
    {
        _log = new OutboundMessageLog();
    }

    public int NextSenderSeqNum { get; private set; } = 1;

    public int NextTargetSeqNum { get; private set; } = 1;

    /// <remarks>Unknown until set: a memory store starts empty after every restart, whatever it had sent before.</remarks>
    public long LastEventId { get; private set; } = ISessionStore.UnknownEventId;

    public void SetNextSenderSeqNum(int value) => NextSenderSeqNum = value;

    public void SetNextTargetSeqNum(int value) => NextTargetSeqNum = value;

    public void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body, long eventId = 0)
    {
        _log.Append(msgSeqNum, msgType, sendingTimeNanos, body);
        NextSenderSeqNum = msgSeqNum + 1;
        if (eventId > 0)
        {
            LastEventId = eventId;
        }
    }

    public void SetLastEventId(long eventId) => LastEventId = eventId;

    public bool TryGetOutbound(int msgSeqNum, out StoredMessage message) => _log.TryGet(msgSeqNum, out message);

    public void Reset()
    {
        _log.Clear();
        NextSenderSeqNum = 1;
        NextTargetSeqNum = 1;
    }

    public void Flush()
    {
    }

    public void Dispose() => _log.Dispose();
}
