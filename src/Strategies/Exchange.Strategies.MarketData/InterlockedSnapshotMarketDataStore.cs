using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Strategies.MarketData;

/// <summary>
/// Market-data sync by swapping an immutable snapshot per instrument with <c>Interlocked.Exchange</c>:
/// the analogue of Java's <c>AtomicReference.set</c>/<c>getAndSet</c>.
/// </summary>
/// <remarks>
/// Like <see cref="VolatileSnapshotMarketDataStore"/> it allocates one snapshot per publish. The exchange is a full fence
/// (a locked instruction on x64), stronger and dearer than the release store the volatile store needs; it is here to
/// measure that difference. Readers use an acquire read, as <c>AtomicReference.get</c> does.
/// Threading: one writer, any number of readers.
/// </remarks>
public sealed class InterlockedSnapshotMarketDataStore : IMarketDataStore
{
    private DepthSnapshot?[] _snapshots = [];

    public void Initialize(int instrumentCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(instrumentCount);
        _snapshots = new DepthSnapshot?[instrumentCount];
    }

    public void Publish(in BookDepth depth) =>
        Interlocked.Exchange(ref _snapshots[depth.InstrumentId], new DepthSnapshot(in depth));

    public bool TryRead(int instrumentId, ref BookDepth destination) =>
        DepthSnapshot.TryCopy(Volatile.Read(ref _snapshots[instrumentId]), ref destination);
}
