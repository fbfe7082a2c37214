using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Strategies.MarketData;

/// <summary>
/// Market-data sync by a <see cref="ReaderWriterLockSlim"/> per instrument: readers share, the writer is exclusive.
/// </summary>
/// <remarks>
/// Readers no longer block each other, but every read still writes the lock's state (an interlocked operation on a
/// shared cache line), and the writer waits for readers in progress. Zero allocation after warm-up: the lock keeps a
/// small per-thread record, created the first time a thread enters it. Threading: one writer, any number of readers.
/// Dispose releases the locks' wait handles once no thread uses the store.
/// </remarks>
public sealed class ReaderWriterLockMarketDataStore : IMarketDataStore, IDisposable
{
    private Slot[] _slots = [];

    public void Initialize(int instrumentCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(instrumentCount);
        var slots = new Slot[instrumentCount];
        for (var i = 0; i < slots.Length; i++)
        {
            slots[i] = new Slot();
        }

        _slots = slots;
    }

    public void Publish(in BookDepth depth)
    {
        var slot = _slots[depth.InstrumentId];
        slot.Gate.EnterWriteLock();
        try
        {
            slot.Depth = depth;
            slot.HasDepth = true;
        }
        finally
        {
            slot.Gate.ExitWriteLock();
        }
    }

    public bool TryRead(int instrumentId, ref BookDepth destination)
    {
        var slot = _slots[instrumentId];
        slot.Gate.EnterReadLock();
        try
        {
            if (!slot.HasDepth)
            {
                return false;
            }

            destination = slot.Depth;
            return true;
        }
        finally
        {
            slot.Gate.ExitReadLock();
        }
    }

    public void Dispose()
    {
        foreach (var slot in _slots)
        {
            slot.Dispose();
        }
    }

    private sealed class Slot : IDisposable
    {
        public readonly ReaderWriterLockSlim Gate = new(LockRecursionPolicy.NoRecursion);
        public BookDepth Depth;
        public bool HasDepth;

        public void Dispose() => Gate.Dispose();
    }
}
