using System.Numerics;
using System.Runtime.CompilerServices;
using Exchange.Core.Domain;

namespace Exchange.Core.Engine;

/// <summary>
/// Live orders by (owner, ClOrdID). Client ids are unique per owner only, so the owner is part of the key; a cancel
/// naming another owner's id simply does not find it.
/// </summary>
/// <remarks>
/// <para>Matcher thread only. An open-addressing table (power-of-two size, linear probing, backward-shift delete, so no
/// tombstones and probe chains stay short). An entry is 8 bytes: a 32-bit fold of the key's 64-bit hash (its low bits
/// are the home bucket) and the order's slot, so a table for 64 K live orders is 1 MB and stays in cache. The key itself
/// is not copied here: it lives in the order's slot, which a hit reads anyway, so the full compare (64-bit hash, owner,
/// id bytes) happens only on a tag match and costs no extra cache miss. Lookups are exact.</para>
/// <para>Contract with <see cref="OrderStore"/>: while an entry (hash, slot) is in the table, that slot is allocated and
/// holds the OwnerId and ClOrdId the hash was computed from, with <see cref="OrderSlot.ClOrdIdHash"/> equal to that hash.
/// Remove an order's entry before changing its client id or releasing its slot.</para>
/// <para>Allocation: sized for the expected live orders (not the order store's capacity, which may be far larger: a
/// sparse table would only spread accesses over more cache lines) and doubled when more than half full. Growth is
/// warm-up allocation; a steady number of live orders allocates nothing.</para>
/// </remarks>
internal sealed class ClOrdIdIndex
{
    private readonly OrderStore _orders;
    private Entry[] _entries;
    private int _mask;
    private int _growThreshold;

    public ClOrdIdIndex(int expectedLiveOrders, OrderStore orders)
    {
        _orders = orders;
        int size = (int)BitOperations.RoundUpToPowerOf2((uint)Math.Clamp(expectedLiveOrders, 4, 1 << 29) * 2);
        _entries = new Entry[size];
        SetSize(size);
    }

    /// <summary>Writes every page of the table once (<see cref="Memory.PageToucher"/>); returns the bytes covered.</summary>
    public long PreFault() => Memory.PageToucher.Touch(_entries);

    /// <summary>Entries in the table.</summary>
    public int Count { get; private set; }

    /// <summary>Table size (a power of two); exposed for growth tests.</summary>
    internal int Capacity => _entries.Length;

    /// <summary>
    /// The key's hash (<see cref="ClOrdIdHash.Full"/>): computed once per command and kept in the order's slot, so
    /// removals never touch the id bytes.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Hash(int ownerId, in ClOrdId clOrdId) => ClOrdIdHash.Full(ClOrdIdHash.Group(ownerId, clOrdId), clOrdId);

    /// <summary>Finds the order slot (owner, id) names; <paramref name="hash"/> is <see cref="Hash"/> of the same key.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryFind(ulong hash, int ownerId, in ClOrdId clOrdId, out int slot)
    {
        Entry[] entries = _entries;
        int mask = _mask;
        uint tag = Tag(hash);
        for (int i = (int)tag & mask; ; i = (i + 1) & mask)
        {
            Entry entry = entries[i];
            if (entry.SlotPlusOne == 0)
            {
                slot = -1;
                return false;
            }

            if (entry.Tag == tag)
            {
                ref OrderSlot order = ref _orders[entry.SlotPlusOne - 1];
                if (order.ClOrdIdHash == hash && order.OwnerId == ownerId && order.ClOrdId.Equals(clOrdId))
                {
                    slot = entry.SlotPlusOne - 1;
                    return true;
                }
            }
        }
    }

    /// <summary>Adds an order slot; the caller has checked its key is not present (<see cref="TryFind"/>).</summary>
    public void Add(ulong hash, int slot)
    {
        if (Count >= _growThreshold)
        {
            Grow();
        }

        Insert(_entries, _mask, Tag(hash), slot + 1);
        Count++;
    }

    /// <summary>Removes the slot's entry (found by slot number, so no key compare); false when it is not in the table.</summary>
    public bool Remove(ulong hash, int slot)
    {
        Entry[] entries = _entries;
        int mask = _mask;
        int slotPlusOne = slot + 1;
        int i = (int)Tag(hash) & mask;
        while (entries[i].SlotPlusOne != slotPlusOne)
        {
            if (entries[i].SlotPlusOne == 0)
            {
                return false;
            }

            i = (i + 1) & mask;
        }

        // Backward-shift delete: pull later entries of the run into the hole when that does not move them before their
        // home bucket, so every remaining entry stays reachable from its home without tombstones.
        for (int j = (i + 1) & mask; entries[j].SlotPlusOne != 0; j = (j + 1) & mask)
        {
            int home = (int)entries[j].Tag & mask;
            if (((j - home) & mask) >= ((j - i) & mask))
            {
                entries[i] = entries[j];
                i = j;
            }
        }

        entries[i] = default;
        Count--;
        return true;
    }

    /// <summary>The 32 bits kept per entry; its low bits pick the home bucket (tables never exceed 2^30 buckets).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint Tag(ulong hash) => (uint)(hash ^ (hash >> 32));

    private static void Insert(Entry[] entries, int mask, uint tag, int slotPlusOne)
    {
        int i = (int)tag & mask;
        while (entries[i].SlotPlusOne != 0)
        {
            i = (i + 1) & mask;
        }

        entries[i].Tag = tag;
        entries[i].SlotPlusOne = slotPlusOne;
    }

    private void Grow()
    {
        Entry[] old = _entries;
        var entries = new Entry[checked(old.Length * 2)];
        int mask = entries.Length - 1;
        foreach (Entry entry in old)
        {
            if (entry.SlotPlusOne != 0)
            {
                Insert(entries, mask, entry.Tag, entry.SlotPlusOne);
            }
        }

        _entries = entries;
        SetSize(entries.Length);
    }

    private void SetSize(int size)
    {
        _mask = size - 1;
        _growThreshold = size / 2; // at most half full: short probe runs, and an empty bucket always ends a probe.
    }

    /// <summary>SlotPlusOne 0 marks an empty bucket, so a new array is all empty.</summary>
    private struct Entry
    {
        public uint Tag;
        public int SlotPlusOne;
    }
}
