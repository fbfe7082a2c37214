namespace Exchange.Fix.Session;

/// <summary>
/// An in-process <see cref="ISessionStore"/> for tests and benchmarks. Messages are appended into one growing byte
/// buffer with an offset per sequence number, so storing allocates only when the buffer or index doubles.
/// Nothing survives the process; memory grows with the session until <see cref="Reset"/>.
/// </summary>
public sealed class MemorySessionStore : ISessionStore
{
    private readonly OutboundMessageLog _log;

    /// <param name="initialBytes">Initial message buffer; size it for the run to keep storing allocation-free.</param>
    /// <param name="initialSeqCapacity">Initial index size (highest seq before the index grows).</param>
    public MemorySessionStore(int initialBytes = 64 * 1024, int initialSeqCapacity = 1024)
    {
        _log = new OutboundMessageLog(initialBytes, initialSeqCapacity);
    }

    public int NextSenderSeqNum { get; private set; } = 1;

    public int NextTargetSeqNum { get; private set; } = 1;

    public void SetNextSenderSeqNum(int value) => NextSenderSeqNum = value;

    public void SetNextTargetSeqNum(int value) => NextTargetSeqNum = value;

    public void StoreOutbound(int msgSeqNum, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body)
    {
        _log.Append(msgSeqNum, msgType, sendingTimeNanos, body);
        NextSenderSeqNum = msgSeqNum + 1;
    }

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

    public void Dispose()
    {
    }
}
