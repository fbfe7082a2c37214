using System.Runtime.CompilerServices;
using System.Numerics;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Core.Memory;

namespace Exchange.Core.Engine;

/// <summary>
/// Every (owner, ClOrdID) the engine accepted during the current trading day, including those of orders that have since
/// filled, been cancelled or expired, so a reused or resent id is refused instead of trading twice; and, for each, the
/// order it named and how that order ended, so a cancel that comes after the end is answered "too late to cancel" with
/// the order's id and status rather than "unknown order".
/// </summary>
/// <remarks>
/// <para>Matcher thread only. Filled only from processed commands, so replaying a journal rebuilds it exactly.</para>
/// <para>Bounded and allocated once: <see cref="Capacity"/> ids per day, fixed at construction, never grown. Growing would
/// mean rehashing millions of ids in the middle of a trading day (the set only grows until the day ends, so growth could
/// never be warm-up). When full, <see cref="IsFull"/> is true and the engine refuses what would need a new id recorded.</para>
/// <para>Layout: an open-addressing table (power of two, at least twice <see cref="Capacity"/>, linear probing) of 8-byte
/// entries, and the keys themselves in an array filled in arrival order. Unlike <see cref="ClOrdIdIndex"/> the keys cannot
/// live in order slots: most of these orders no longer exist. A key's home bucket is in its group's 16 entries (two
/// cache lines, chosen by <see cref="ClOrdIdHash.Group"/>: the owner and every byte of the id but the last) at the
/// place its last byte picks, so ten numbered ids ("A-1230" .. "A-1239") share two lines instead of taking a line each:
/// with a table of tens of megabytes, a line per id was a cache miss per order, most of an order's cost. An entry holds a
/// 32-bit check (group hash bits the bucket does not use, mixed with the last byte), so a probe reads a key only when the
/// check matches, and a stamp saying which recorded id it is.</para>
/// <para>Starting a new day must not cost a pass over the table (benchmarks and tests replay a block of commands and start a
/// new day after each one). Stamps keep counting across days; an entry whose stamp is not above the day's first is
/// empty. Nothing is removed during a day, so treating stale entries as empty never cuts a probe short: every entry
/// recorded today sits behind a run of entries that were recorded today before it. Only when the stamps would wrap is
/// the table cleared, once in about four billion recorded ids.</para>
/// <para>Orders: each recorded id has a 48-byte <see cref="UsedIdOrder"/> beside its key (same index), written when the id
/// is recorded, in arrival order like the key. Every end of the order marks it, by the stamp the order's slot kept
/// (<see cref="MarkEnded"/>: how it ended and its final quantities, for a status request or a too-late cancel), and
/// so does a replace (<see cref="MarkSuperseded"/>, which links the id to the order's next one): a few stores to one record. On a cancel, a replace or a remainder's
/// end the record is in cache or its id was just probed; a resting order that fills completely pays a store to a
/// record that may be out of cache. The lookup (<see cref="TryGetOrder"/>) is paid only by a cancel or replace that
/// found no live order, and by a status request for one.</para>
/// <para>Memory: 40 bytes per id for the keys, 48 for the orders they name, plus 16 to 32 for the table: 104 to 120 MB
/// per million ids. All are native
/// memory mapped up front (<see cref="HugePageMemory"/>: a probe lands anywhere in the table, and huge pages spare it a
/// TLB miss). A venue writes every page at start (<see cref="PreFault"/>), so no order pays a first-touch fault; otherwise
/// the keys' pages are backed as ids are recorded and the table's as groups land in them, which, groups being spread
/// over the whole table, makes all of it resident within a busy day. Released by the finalizer: the set
/// lives as long as its engine, which has no dispose of its own.</para>
/// </remarks>
internal sealed unsafe class UsedClOrdIds
{
    private readonly Entry* _entries;
    private readonly Key* _keys;
    private readonly UsedIdOrder* _orders;
    private readonly int _size;
    private readonly int _mask;
    private uint _dayStartStamp;

    public UsedClOrdIds(int capacity)
        : this(capacity, firstStamp: 0)
    {
    }

    /// <summary>For tests: starts the stamps at <paramref name="firstStamp"/>, so the wrap can be reached quickly.</summary>
    internal UsedClOrdIds(int capacity, uint firstStamp)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(capacity, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(capacity, EngineOptions.LargestMaxClOrdIdsPerDay);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(firstStamp, uint.MaxValue - (uint)capacity);
        Capacity = capacity;
        int size = (int)BitOperations.RoundUpToPowerOf2((uint)capacity * 2);
        _size = size;
        _entries = HugePageMemory.Allocate<Entry>(size);
        _mask = size - 1;
        _keys = HugePageMemory.Allocate<Key>(capacity);
        _orders = HugePageMemory.Allocate<UsedIdOrder>(capacity);
        _dayStartStamp = firstStamp;
    }

    ~UsedClOrdIds()
    {
        HugePageMemory.Free(_entries, _size);
        HugePageMemory.Free(_keys, Capacity);
        HugePageMemory.Free(_orders, Capacity);
    }

    /// <summary>
    /// Writes every page of the table, the key array and the order records once (<see cref="PageToucher"/>), so the day's first ids do not
    /// page-fault; this makes all of the memory resident. Returns the bytes covered.
    /// </summary>
    public long PreFault() =>
        PageToucher.Touch(_entries, (long)_size * sizeof(Entry)) + PageToucher.Touch(_keys, (long)Capacity * sizeof(Key)) +
        PageToucher.Touch(_orders, (long)Capacity * sizeof(UsedIdOrder));

    /// <summary>The most ids one day can record.</summary>
    public int Capacity { get; }

    /// <summary>Ids recorded since the day started.</summary>
    public int Count { get; private set; }

    public bool IsFull
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Count >= Capacity;
    }

    /// <summary>
    /// Whether (owner, id) was recorded today. When it was not, <paramref name="freeBucket"/> is where
    /// <see cref="Record"/> would put it. <paramref name="groupHash"/> is <see cref="ClOrdIdHash.Group"/> of the same key.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Contains(ulong groupHash, int ownerId, in ClOrdId clOrdId, out int freeBucket) =>
        Find(groupHash, ownerId, clOrdId, out freeBucket) >= 0;

    /// <summary>The order (owner, id) named when it was recorded today, and what was marked of its end.</summary>
    public bool TryGetOrder(ulong groupHash, int ownerId, in ClOrdId clOrdId, out UsedIdOrder order)
    {
        int index = Find(groupHash, ownerId, clOrdId, out _);
        order = index >= 0 ? _orders[index] : default;
        return index >= 0;
    }

    /// <summary>The index of (owner, id) among today's keys, or -1 with the free bucket where it would go.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int Find(ulong groupHash, int ownerId, in ClOrdId clOrdId, out int freeBucket)
    {
        Entry* entries = _entries;
        Key* keys = _keys;
        int mask = _mask;
        uint dayStart = _dayStartStamp;
        uint lastByte = ClOrdIdHash.LastByte(clOrdId);
        uint check = Check(groupHash, lastByte);
        for (int i = Home(groupHash, lastByte, mask); ; i = (i + 1) & mask)
        {
            Entry entry = entries[i];
            if (entry.Stamp <= dayStart)
            {
                freeBucket = i;
                return -1;
            }

            if (entry.Check == check)
            {
                int index = (int)(entry.Stamp - dayStart - 1);
                ref Key key = ref keys[index];
                if (key.OwnerId == ownerId && key.ClOrdId.Equals(clOrdId))
                {
                    freeBucket = -1;
                    return index;
                }
            }
        }
    }

    /// <summary>
    /// Records (owner, id), used on order <paramref name="orderId"/> of <paramref name="instrumentId"/>, in the bucket
    /// <see cref="Contains"/> just returned for it. No other id may have been recorded in between (the bucket would no
    /// longer be free), and the caller has checked <see cref="IsFull"/>. Returns the id's stamp, which
    /// <see cref="MarkEnded"/> and <see cref="MarkSuperseded"/> take.
    /// </summary>
    public uint Record(int freeBucket, ulong groupHash, int ownerId, in ClOrdId clOrdId, long orderId, int instrumentId)
    {
        int index = Count;
        ref Key key = ref _keys[index];
        key.OwnerId = ownerId;
        key.ClOrdId = clOrdId;
        _orders[index] = new UsedIdOrder { OrderId = orderId, InstrumentId = instrumentId };
        Count++;
        uint stamp = _dayStartStamp + (uint)Count;
        _entries[freeBucket] = new Entry { Check = Check(groupHash, ClOrdIdHash.LastByte(clOrdId)), Stamp = stamp };
        return stamp;
    }

    /// <summary>
    /// Records that the order the id of <paramref name="stamp"/> named has ended, with its side and final quantities, and
    /// why when it was cancelled (None: it filled). 0 (never recorded) and a stamp of an earlier day (a carried order
    /// whose id was not recorded today) are ignored: stamps only grow between wraps, and the engine drops the stamps it
    /// keeps when one happens (<see cref="StartNewDay"/>).
    /// </summary>
    /// <param name="byCancelRequest">The id is the cancel request's own (see <see cref="UsedIdOrder.IsCancelRequest"/>).</param>
    public void MarkEnded(
        uint stamp, CancelReason reason, Side side, long orderQuantity, long cumulativeQuantity, long cumulativeNotional, bool byCancelRequest = false)
    {
        if (TryIndexOf(stamp, out uint index))
        {
            ref UsedIdOrder order = ref _orders[index];
            order.IsCancelRequest = byCancelRequest;
            order.EndReason = reason;
            order.Side = side;
            order.OrderQuantity = orderQuantity;
            order.CumulativeQuantity = cumulativeQuantity;
            order.CumulativeNotional = cumulativeNotional;
        }
    }

    /// <summary>Whether <paramref name="stamp"/> is of an id recorded today (not 0, not of an earlier day).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool IsToday(uint stamp) => TryIndexOf(stamp, out _);

    /// <summary>
    /// Records that a replace moved the order off the id of <paramref name="stamp"/> onto the id of
    /// <paramref name="successorStamp"/>, recorded just before (same rules as <see cref="MarkEnded"/>).
    /// </summary>
    public void MarkSuperseded(uint stamp, uint successorStamp)
    {
        if (TryIndexOf(stamp, out uint index))
        {
            _orders[index].SupersededBy = successorStamp;
        }
    }

    /// <summary>
    /// The record of the id the order named by (owner, id) held last today: the id's own record unless replaces moved
    /// the order on, else that of the last id they moved it to (which holds how the order ended, once it has). False
    /// when (owner, id) was not recorded today.
    /// </summary>
    /// <remarks>
    /// Follows the replaces' links one id at a time, then points every id passed straight at the last one, so a
    /// client that asks about an early id of an order replaced many times pays the walk once, not on every request.
    /// Off the accepted path: only a request about an id replaced away from asks.
    /// </remarks>
    public bool TryGetLastOrder(ulong groupHash, int ownerId, in ClOrdId clOrdId, out UsedIdOrder order)
    {
        int first = Find(groupHash, ownerId, clOrdId, out _);
        if (first < 0)
        {
            order = default;
            return false;
        }

        uint last = (uint)first;
        while (TryIndexOf(_orders[last].SupersededBy, out uint next))
        {
            last = next;
        }

        uint lastStamp = _dayStartStamp + last + 1;
        for (uint at = (uint)first; at != last && TryIndexOf(_orders[at].SupersededBy, out uint next); at = next)
        {
            _orders[at].SupersededBy = lastStamp;
        }

        order = _orders[last];
        return true;
    }

    private bool TryIndexOf(uint stamp, out uint index)
    {
        index = stamp - _dayStartStamp - 1;
        return index < (uint)Count;
    }

    /// <summary>
    /// Forgets every id: a new trading day. Constant time, except a table clear when the stamps would wrap; returns true
    /// then, as stamps of earlier days kept elsewhere may now read as today's and must be dropped (set to 0).
    /// </summary>
    public bool StartNewDay()
    {
        uint lastStamp = _dayStartStamp + (uint)Count;
        bool wrapped = uint.MaxValue - lastStamp < (uint)Capacity;
        if (wrapped)
        {
            new Span<Entry>(_entries, _size).Clear();
            lastStamp = 0;
        }

        _dayStartStamp = lastStamp;
        Count = 0;
        return wrapped;
    }

    /// <summary>The key's group (16 entries, 128 bytes) and its place in it, from the last byte (the digits '0'..'9' apart).</summary>
    private static int Home(ulong groupHash, uint lastByte, int mask) => (int)(((uint)groupHash & ~15u) | (lastByte & 15)) & mask;

    /// <summary>
    /// Group hash bits the bucket does not use (tables never exceed 2^32 buckets), mixed with the last byte so the keys of
    /// one group differ (an odd multiplier is a bijection on 32 bits).
    /// </summary>
    private static uint Check(ulong groupHash, uint lastByte) => (uint)(groupHash >> 32) ^ (lastByte * 0x9E3779B1u);

    /// <summary>A stamp of 0 (never used) or at most the day's first stamp marks a free bucket.</summary>
    private struct Entry
    {
        public uint Check;
        public uint Stamp;
    }

    private struct Key
    {
        public int OwnerId;
        public ClOrdId ClOrdId;
    }
}
