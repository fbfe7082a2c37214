namespace Exchange.Fix.Session;

/// <summary>
/// An in-process <see cref="ISessionStore"/> for tests and benchmarks. Messages are appended into native memory
/// chunks (<see cref="OutboundMessageLog"/>): storing never allocates managed memory and never copies earlier messages.
/// Nothing survives the process; memory grows with the session until <see cref="Reset"/>.
/// </summary>
public sealed class MemorySessionStore : ISessionStore
{
    private readonly SeqNumRanges _queued = new();
    private OutboundMessageLog _log;

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

    public void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body, long eventId = 0, bool queued = false)
    {
        _log.Append(msgSeqNum, msgType, sendingTimeNanos, body);
        NextSenderSeqNum = msgSeqNum + 1;
        if (eventId > 0)
        {
            LastEventId = eventId;
        }

        if (queued)
        {
            _queued.Add(msgSeqNum);
        }
    }

    public void SetLastEventId(long eventId) => LastEventId = eventId;

    public bool TryGetOutbound(int msgSeqNum, out StoredMessage message) => _log.TryGet(msgSeqNum, out message);

    public bool IsQueued(int msgSeqNum) => _queued.Contains(msgSeqNum);

    public void MarkDelivered(int firstSeqNum, int lastSeqNum) => _queued.Remove(firstSeqNum, lastSeqNum);

    public void Reset(int firstQueuedSeqNum, long sendingTimeNanos)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(firstQueuedSeqNum, 1);
        int next = firstQueuedSeqNum;
        if (_queued.IsEmpty)
        {
            _log.Clear();
        }
        else
        {
            // The kept messages are copied into a new log before the old one is freed: they are read from it.
            var kept = new OutboundMessageLog();
            foreach (SeqNumRange range in _queued.Ranges)
            {
                for (int seq = range.First; seq <= range.Last; seq++)
                {
                    if (_log.TryGet(seq, out StoredMessage message))
                    {
                        kept.Append(next++, message.MsgType, sendingTimeNanos, message.Body);
                    }
                }
            }

            _log.Dispose();
            _log = kept;
            _queued.Clear();
            for (int seq = firstQueuedSeqNum; seq < next; seq++)
            {
                _queued.Add(seq);
            }
        }

        NextSenderSeqNum = next;
        NextTargetSeqNum = 1;
    }

    public void Flush()
    {
    }

    public void Dispose() => _log.Dispose();
}
