using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Strategies.MarketData;

/// <summary>
/// Market-data sync by a mutual-exclusion lock per instrument around copying into and out of a preallocated depth.
/// </summary>
/// <remarks>
/// Zero allocation after <see cref="Initialize"/> (an uncontended <see cref="Lock"/> allocates nothing). The writer
/// blocks while a reader copies and readers block each other, so the matcher's publish latency depends on readers.
/// The lock's acquire/release gives all the ordering needed. Threading: one writer, any number of readers.
/// </remarks>
public sealed class LockMarketDataStore : IMarketDataStore
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
        lock (slot.Gate)
        {
            slot.Depth = depth;
            slot.HasDepth = true;
        }
    }

    public bool TryRead(int instrumentId, ref BookDepth destination)
    {
        var slot = _slots[instrumentId];
        lock (slot.Gate)
        {
            if (!slot.HasDepth)
            {
                return false;
            }

            destination = slot.Depth;
            return true;
        }
    }

    /// <summary>One instrument's lock and buffer; a separate object each, so instruments do not share a cache line's lock.</summary>
    private sealed class Slot
    {
        public readonly Lock Gate = new();
        public BookDepth Depth;
        public bool HasDepth;
    }
}
