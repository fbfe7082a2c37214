namespace Exchange.Fix.Session;

/// <summary>
/// An in-process <see cref="ISessionStore"/> for tests and benchmarks. Messages are kept in a native ring of fixed size
/// (<see cref="OutboundMessageLog"/>): storing never allocates managed memory, never copies earlier messages, and keeps
/// the most recent messages that fit. Older ones cannot be resent (a ResendRequest gap-fills them), and a report queued
/// for an absent client is lost once it is overwritten (<see cref="Reset"/> returns how many, a resend finds them
/// missing; <see cref="FixSession.QueuedMessagesLost"/> counts both). Nothing survives the process.
/// </summary>
public sealed class MemorySessionStore : ISessionStore
{
    public const int DefaultCapacityBytes = OutboundMessageLog.DefaultCapacityBytes;

    private readonly SeqNumRanges _queued = new();
    private readonly OutboundMessageLog _log;

    /// <param name="capacityBytes">Size of the ring of messages.</param>
    /// <param name="preFault">Write every page of the ring now, so storing never page-faults (see <see cref="OutboundMessageLog.PreFault"/>).</param>
    public MemorySessionStore(int capacityBytes = DefaultCapacityBytes, bool preFault = false)
    {
        _log = new OutboundMessageLog(capacityBytes);
        if (preFault)
        {
            _log.PreFault();
        }
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

    public int Reset(int firstQueuedSeqNum, long sendingTimeNanos)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(firstQueuedSeqNum, 1);
        int next = firstQueuedSeqNum;
        int lost = 0;
        if (_queued.IsEmpty)
        {
            _log.Clear();
        }
        else
        {
            // The kept messages are copied out first: storing them again could write over them in the ring.
            var kept = new List<(byte[] MsgType, byte[] Body)>();
            foreach (SeqNumRange range in _queued.Ranges)
            {
                for (int seq = range.First; seq <= range.Last; seq++)
                {
                    if (_log.TryGet(seq, out StoredMessage message))
                    {
                        kept.Add((message.MsgType.ToArray(), message.Body.ToArray()));
                    }
                    else
                    {
                        lost++;
                    }
                }
            }

            _log.Clear();
            _queued.Clear();
            foreach ((byte[] msgType, byte[] body) in kept)
            {
                _queued.Add(next);
                _log.Append(next++, msgType, sendingTimeNanos, body);
            }
        }

        NextSenderSeqNum = next;
        NextTargetSeqNum = 1;
        return lost;
    }

    public void Flush()
    {
    }

    public void Dispose() => _log.Dispose();
}
