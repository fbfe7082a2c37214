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
/// tombstones and probe chains stay short). An entry is 16 bytes: the key's 64-bit hash and the order id. The key itself
/// is not copied here: it lives in the order's slot, which a hit reads anyway, so a full key compare happens only on a
/// hash match and costs no extra cache miss. Lookups are exact (hash match, then owner and bytes compared).</para>
/// <para>Contract with <see cref="OrderStore"/>: while an entry (hash, order id) is in the table, that order id is live
/// and its slot holds the OwnerId and ClOrdId the hash was computed from, and a slot's
/// <see cref="OrderSlot.ClOrdIdHash"/> equals that hash. Remove an order's entry before changing its client id or
/// releasing its slot.</para>
/// <para>Allocation: the table grows (doubles) when more than half full, during warm-up only; a steady number of live
/// orders allocates nothing.</para>
/// </remarks>
internal sealed class ClOrdIdIndex
{
    private readonly OrderStore _orders;
    private Entry[] _entries;
    private int _mask;
    private int _growThreshold;

    public ClOrdIdIndex(int initialCapacity, OrderStore orders)
    {
        _orders = orders;
        int size = (int)BitOperations.RoundUpToPowerOf2((uint)Math.Clamp(initialCapacity, 4, 1 << 29) * 2);
        _entries = new Entry[size];
        SetSize(size);
    }

    /// <summary>Entries in the table.</summary>
    public int Count { get; private set; }

    /// <summary>Table size (a power of two); exposed for growth tests.</summary>
    internal int Capacity => _entries.Length;

    /// <summary>
    /// The key's hash: computed once per command and kept in the order's slot, so removals never touch the id bytes.
    /// Reads the id as 8-byte words (bytes past its length are masked off, so equal ids always hash equally).
    /// </summary>
    public static ulong Hash(int ownerId, in ClOrdId clOrdId)
    {
        ReadOnlySpan<byte> bytes = clOrdId.AsSpan();
        int length = bytes.Length;
        ref byte start = ref System.Runtime.InteropServices.MemoryMarshal.GetReference(bytes);
        ulong hash = ((ulong)(uint)ownerId << 8 | (uint)length) * 0x9E3779B97F4A7C15UL;
        int offset = 0;
        for (; offset + sizeof(ulong) <= length; offset += sizeof(ulong))
        {
            hash = Mix(hash, Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, offset)));
        }

        int remaining = length - offset;
        if (remaining > 0)
        {
            // A whole-word read is in bounds: the span starts an inline buffer of ClOrdId.MaxLength (32) bytes and
            // offset <= 24 here. The bytes past the id's length are masked off rather than trusted to be zero.
            ulong tail = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, offset));
            hash = Mix(hash, tail & (ulong.MaxValue >> ((sizeof(ulong) - remaining) * 8)));
        }

        // Final avalanche (the MurmurHash3 64-bit finaliser constants) so the low bits used as the bucket are well mixed.
        hash ^= hash >> 33;
        hash *= 0xFF51AFD7ED558CCDUL;
        hash ^= hash >> 33;
        hash *= 0xC4CEB9FE1A85EC53UL;
        hash ^= hash >> 33;
        return hash;
    }

    /// <summary>Finds the live order (owner, id) names; <paramref name="hash"/> is <see cref="Hash"/> of the same key.</summary>
    public bool TryFind(ulong hash, int ownerId, in ClOrdId clOrdId, out int slot)
    {
        Entry[] entries = _entries;
        int mask = _mask;
        for (int i = (int)hash & mask; ; i = (i + 1) & mask)
        {
            ref Entry entry = ref entries[i];
            if (entry.OrderId == 0)
            {
                slot = -1;
                return false;
            }

            if (entry.Hash == hash && _orders.TryGetSlot(entry.OrderId, out slot))
            {
                ref OrderSlot order = ref _orders[slot];
                if (order.OwnerId == ownerId && order.ClOrdId == clOrdId)
                {
                    return true;
                }
            }
        }
    }

    /// <summary>Adds a live order; the caller has checked its key is not present (<see cref="TryFind"/>).</summary>
    public void Add(ulong hash, long orderId)
    {
        if (Count >= _growThreshold)
        {
            Grow();
        }

        Insert(_entries, _mask, hash, orderId);
        Count++;
    }

    /// <summary>Removes the order's entry (found by order id, so no key compare); false when it is not in the table.</summary>
    public bool Remove(ulong hash, long orderId)
    {
        Entry[] entries = _entries;
        int mask = _mask;
        int i = (int)hash & mask;
        while (entries[i].OrderId != orderId)
        {
            if (entries[i].OrderId == 0)
            {
                return false;
            }

            i = (i + 1) & mask;
        }

        // Backward-shift delete: pull later entries of the run into the hole when that does not move them before their
        // home bucket, so every remaining entry stays reachable from its home without tombstones.
        for (int j = (i + 1) & mask; entries[j].OrderId != 0; j = (j + 1) & mask)
        {
            int home = (int)entries[j].Hash & mask;
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

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Mix(ulong hash, ulong word) => BitOperations.RotateLeft((hash ^ word) * 0x9E3779B97F4A7C15UL, 31);

    private static void Insert(Entry[] entries, int mask, ulong hash, long orderId)
    {
        int i = (int)hash & mask;
        while (entries[i].OrderId != 0)
        {
            i = (i + 1) & mask;
        }

        entries[i].Hash = hash;
        entries[i].OrderId = orderId;
    }

    private void Grow()
    {
        Entry[] old = _entries;
        var entries = new Entry[checked(old.Length * 2)];
        int mask = entries.Length - 1;
        foreach (Entry entry in old)
        {
            if (entry.OrderId != 0)
            {
                Insert(entries, mask, entry.Hash, entry.OrderId);
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

    /// <summary>OrderId 0 marks an empty bucket (0 is never a live order id).</summary>
    private struct Entry
    {
        public ulong Hash;
        public long OrderId;
    }
}
