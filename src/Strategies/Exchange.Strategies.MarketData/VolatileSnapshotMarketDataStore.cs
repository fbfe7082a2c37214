using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Strategies.MarketData;

/// <summary>
/// Market-data sync by a volatile reference to an immutable snapshot per instrument.
/// </summary>
/// <remarks>
/// This is the Java study's baseline (a <c>volatile</c> field holding an immutable object): every publish allocates a new
/// snapshot, so it produces garbage in proportion to the publish rate, which the SeqLock store avoids.
/// Ordering: <c>Volatile.Write</c> is a release, so the snapshot's contents, written by its
/// constructor, are visible before the reference is; <c>Volatile.Read</c> is an acquire, so the
/// reader's copy cannot be read ahead of the reference. Nothing is ever written into a published snapshot, so the copy
/// cannot be torn. Threading: one writer, any number of readers; instrument ids outside
/// 0..instrumentCount-1 are caller bugs and throw.
/// </remarks>
public sealed class VolatileSnapshotMarketDataStore : IMarketDataStore
{
    private DepthSnapshot?[] _snapshots = [];

    public void Initialize(int instrumentCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(instrumentCount);
        _snapshots = new DepthSnapshot?[instrumentCount];
    }

    public void Publish(in BookDepth depth) =>
        Volatile.Write(ref _snapshots[depth.InstrumentId], new DepthSnapshot(in depth));

    public bool TryRead(int instrumentId, ref BookDepth destination) =>
        DepthSnapshot.TryCopy(Volatile.Read(ref _snapshots[instrumentId]), ref destination);
}
