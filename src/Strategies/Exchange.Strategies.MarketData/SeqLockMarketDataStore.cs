using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Strategies.MarketData;

/// <summary>
/// Market-data sync by a sequence lock (seqlock) per instrument over a preallocated depth buffer: the writer never
/// waits and never allocates; readers copy optimistically and retry when the writer was active during their copy.
/// </summary>
/// <remarks>
/// <para>Protocol. Each instrument has a sequence: 0 means never published, odd means a publish is in progress, even and
/// non-zero means the buffer holds one whole publish. The writer makes the sequence odd, copies the depth in, then makes
/// it even again. A reader reads the sequence (waiting while it is odd), copies the buffer, reads the sequence again and
/// accepts the copy only when both reads are equal: then no publish overlapped the copy.</para>
/// <para>Memory ordering (the .NET memory model: volatile read = acquire, volatile write = release, Interlocked = full
/// fence):</para>
/// <list type="number">
/// <item>Writer, begin: <c>Interlocked.Increment</c> to odd is a full fence, so the odd value is visible before any of
/// the data stores that follow. A plain release store would not do: release only keeps earlier accesses before it,
/// later data stores could still become visible first and a reader could copy new data under the old even value.</item>
/// <item>Writer, end: <c>Volatile.Write</c> of the next even value is a release, so every data store is visible before
/// the sequence says the buffer is complete.</item>
/// <item>Reader, first read: <c>Volatile.Read</c> is an acquire, so the data loads cannot be performed before it.</item>
/// <item>Reader, second read: the data loads must complete before the sequence is read again; an acquire read does not
/// forbid earlier loads from moving after it, so <c>Interlocked.MemoryBarrier</c> sits between the copy and that read.
/// </item>
/// </list>
/// <para>If the two reads are equal and even, the writer neither began (1) nor was in progress during the copy, so the
/// copy equals the publish that set that even value (2, 3). A copy made while a publish ran may be torn (a 512-byte
/// struct is copied in many loads); such a copy fails validation and is taken again. The copy goes straight into the
/// caller's <c>destination</c>, which is the caller's own memory: when <see cref="TryRead"/> returns true, its content
/// is the last, validated copy; a failed attempt is always overwritten by a later one before returning.</para>
/// <para>Layout: one array of padded slots. The sequence sits 64 bytes into its slot and the depth starts at 128, with
/// padding at the end, so no cache line holds the sequence of one instrument together with another instrument's data:
/// publishing one book does not slow readers of its neighbours (false sharing).</para>
/// <para>Threading: exactly one writer (a second writer would break the odd/even protocol); any number of readers.
/// Readers spin with <see cref="SpinWait"/>, which yields and eventually sleeps, while a publish is in progress.
/// Allocation: none after <see cref="Initialize"/>.</para>
/// </remarks>
public sealed class SeqLockMarketDataStore : IMarketDataStore
{
    private Slot[] _slots = [];

    public void Initialize(int instrumentCount)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(instrumentCount);
        if (Unsafe.SizeOf<BookDepth>() > Slot.DepthSize)
        {
            // The padding below assumes the depth fits its reserved space; a bigger BookDepth would still work but
            // could share a cache line with the next slot's sequence. Fail loudly at start-up rather than slow silently.
            throw new InvalidOperationException(
                $"BookDepth is {Unsafe.SizeOf<BookDepth>()} bytes; raise SeqLockMarketDataStore.Slot.DepthSize.");
        }

        _slots = new Slot[instrumentCount];
    }

    public void Publish(in BookDepth depth)
    {
        ref var slot = ref _slots[depth.InstrumentId];
        var odd = Interlocked.Increment(ref slot.Sequence);
        slot.Depth = depth;
        Volatile.Write(ref slot.Sequence, odd + 1);
    }

    public bool TryRead(int instrumentId, ref BookDepth destination)
    {
        ref var slot = ref _slots[instrumentId];
        var spinner = default(SpinWait);
        while (true)
        {
            var before = Volatile.Read(ref slot.Sequence);
            if (before == 0)
            {
                return false;
            }

            if ((before & 1) != 0)
            {
                spinner.SpinOnce();
                continue;
            }

            destination = slot.Depth;
            Interlocked.MemoryBarrier();
            if (Volatile.Read(ref slot.Sequence) == before)
            {
                return true;
            }

            spinner.SpinOnce();
        }
    }

    /// <summary>One instrument's sequence and buffer, padded so neighbours never share a cache line (see remarks).</summary>
    [StructLayout(LayoutKind.Explicit, Size = DepthOffset + DepthSize + CacheLine)]
    private struct Slot
    {
        private const int CacheLine = 64;
        private const int SequenceOffset = CacheLine;
        private const int DepthOffset = 2 * CacheLine;

        /// <summary>Space reserved for the depth, a multiple of the cache line; checked in <see cref="Initialize"/>.</summary>
        internal const int DepthSize = 512;

        [FieldOffset(SequenceOffset)]
        public long Sequence;

        [FieldOffset(DepthOffset)]
        public BookDepth Depth;
    }
}
