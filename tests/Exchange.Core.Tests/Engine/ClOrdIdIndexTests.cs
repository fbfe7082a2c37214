using System.Runtime.CompilerServices;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// The open-addressing (owner, ClOrdID) index against a Dictionary reference: seeded random add/remove/lookup with
/// growth from a tiny table, forced hash collisions (so exactness rests on the key compare, and backward-shift deletes
/// run on long and wrapping probe chains), and the hash's independence from bytes past an id's length.
/// </summary>
public class ClOrdIdIndexTests
{
    public enum HashMode
    {
        /// <summary>The real hash.</summary>
        Real,

        /// <summary>Five distinct hashes whose home buckets sit at the start of the table: long overlapping runs.</summary>
        FewHomesAtStart,

        /// <summary>Five distinct hashes whose home buckets sit at the end of the table: runs wrap around to bucket 0.</summary>
        FewHomesAtEnd,
    }

    [Theory]
    [InlineData(HashMode.Real, 1)]
    [InlineData(HashMode.Real, 2)]
    [InlineData(HashMode.FewHomesAtStart, 3)]
    [InlineData(HashMode.FewHomesAtEnd, 4)]
    public void Random_operations_match_a_dictionary(HashMode mode, int seed)
    {
        var harness = new Harness(mode, initialCapacity: 4);
        var random = new Random(seed);
        string[] ids = CreateIds(mode == HashMode.Real ? 3_000 : 300);
        int operations = mode == HashMode.Real ? 60_000 : 8_000;

        for (int i = 0; i < operations; i++)
        {
            int owner = random.Next(3);
            string id = ids[random.Next(ids.Length)];
            if (random.Next(100) < 55)
            {
                harness.AddIfAbsent(owner, id);
            }
            else
            {
                harness.RemoveIfPresent(owner, id);
            }

            harness.CheckLookup(random.Next(3), ids[random.Next(ids.Length)]);
            if (i % 1_000 == 0)
            {
                harness.CheckAll();
            }
        }

        harness.CheckAll();
        Assert.True(harness.Index.Capacity > 4, "the table never grew");
    }

    [Fact]
    public void Growth_keeps_every_entry_and_keeps_the_table_at_most_half_full()
    {
        var harness = new Harness(HashMode.Real, initialCapacity: 4);
        int initialCapacity = harness.Index.Capacity;
        for (int n = 0; n < 10_000; n++)
        {
            harness.AddIfAbsent(n % 7, "ORD" + n.ToString("D8", System.Globalization.CultureInfo.InvariantCulture));
            Assert.True(harness.Index.Count * 2 <= harness.Index.Capacity);
        }

        Assert.True(harness.Index.Capacity >= 20_000 && harness.Index.Capacity > initialCapacity);
        harness.CheckAll();
    }

    [Fact]
    public void Deleting_from_the_middle_of_a_colliding_run_keeps_the_rest_reachable()
    {
        var harness = new Harness(HashMode.FewHomesAtEnd, initialCapacity: 64);
        string[] ids = CreateIds(40);
        foreach (string id in ids)
        {
            harness.AddIfAbsent(owner: 1, id);
        }

        // Remove every third entry, front to back and then back to front, checking all survivors each time.
        for (int i = 0; i < ids.Length; i += 3)
        {
            harness.RemoveIfPresent(owner: 1, ids[i]);
            harness.CheckAll();
        }

        for (int i = ids.Length - 1; i >= 0; i--)
        {
            harness.RemoveIfPresent(owner: 1, ids[i]);
            harness.CheckAll();
        }

        Assert.Equal(0, harness.Index.Count);
    }

    [Fact]
    public void Same_id_under_another_owner_is_a_different_key()
    {
        var harness = new Harness(HashMode.FewHomesAtStart, initialCapacity: 16);
        harness.AddIfAbsent(owner: 1, "A");
        Assert.False(harness.Index.TryFind(harness.HashOf(2, "A"), 2, ClOrdId.From("A"), out _));
        Assert.True(harness.Index.TryFind(harness.HashOf(1, "A"), 1, ClOrdId.From("A"), out _));
    }

    [Fact]
    public void Removing_an_absent_order_reports_false_and_changes_nothing()
    {
        var harness = new Harness(HashMode.Real, initialCapacity: 16);
        harness.AddIfAbsent(owner: 1, "A");
        Assert.False(harness.Index.Remove(ClOrdIdIndex.Hash(1, ClOrdId.From("B")), slot: 12345));
        Assert.Equal(1, harness.Index.Count);
        harness.CheckAll();
    }

    [Theory]
    [InlineData("A")]
    [InlineData("ABCDEFG")]
    [InlineData("ABCDEFGH")]
    [InlineData("ABCDEFGHIJKLMNOPQRSTUVWXYZ01234")]
    public void Hash_ignores_bytes_past_the_id_length(string text)
    {
        ClOrdId clean = ClOrdId.From(text);
        ClOrdId dirty = clean;
        ref byte first = ref Unsafe.As<ClOrdId, byte>(ref dirty);
        for (int i = text.Length; i < ClOrdId.MaxLength; i++)
        {
            Unsafe.Add(ref first, i) = 0xA5; // Not reachable through the public API, but the hash must not depend on it.
        }

        Assert.Equal(clean, dirty);
        Assert.Equal(ClOrdIdIndex.Hash(3, clean), ClOrdIdIndex.Hash(3, dirty));
        Assert.NotEqual(ClOrdIdIndex.Hash(3, clean), ClOrdIdIndex.Hash(4, clean));
    }

    /// <summary>Ids of 1 to 32 characters, many sharing prefixes and differing only in the last byte.</summary>
    private static string[] CreateIds(int count)
    {
        var ids = new string[count];
        for (int n = 0; n < count; n++)
        {
            string digits = n.ToString(System.Globalization.CultureInfo.InvariantCulture);
            int length = 1 + (n * 7 % ClOrdId.MaxLength);
            ids[n] = length <= digits.Length ? digits : digits.PadLeft(length, 'X');
        }

        return ids.Distinct().ToArray();
    }

    /// <summary>An index over a real order store, mirrored by a dictionary; the engine's add/remove protocol.</summary>
    private sealed class Harness
    {
        private readonly HashMode _mode;
        private readonly OrderStore _orders;
        private readonly Dictionary<(int Owner, string Id), long> _reference = [];

        public Harness(HashMode mode, int initialCapacity)
        {
            _mode = mode;
            _orders = new OrderStore(initialCapacity, maxCapacity: 1 << 20);
            Index = new ClOrdIdIndex(initialCapacity, _orders);
        }

        public ClOrdIdIndex Index { get; }

        public ulong HashOf(int owner, string id) => _mode switch
        {
            HashMode.Real => ClOrdIdIndex.Hash(owner, ClOrdId.From(id)),
            HashMode.FewHomesAtStart => (ulong)((id.Length + owner) % 5),
            _ => uint.MaxValue - (uint)((id.Length + owner) % 5),
        };

        public void AddIfAbsent(int owner, string id)
        {
            ClOrdId clOrdId = ClOrdId.From(id);
            ulong hash = HashOf(owner, id);
            bool found = Index.TryFind(hash, owner, clOrdId, out _);
            Assert.Equal(_reference.ContainsKey((owner, id)), found);
            if (found)
            {
                return;
            }

            int slot = _orders.Allocate();
            ref OrderSlot order = ref _orders[slot];
            order.OwnerId = owner;
            order.ClOrdId = clOrdId;
            order.ClOrdIdHash = hash;
            Index.Add(hash, slot);
            _reference.Add((owner, id), order.OrderId);
        }

        public void RemoveIfPresent(int owner, string id)
        {
            if (!_reference.Remove((owner, id), out long orderId))
            {
                return;
            }

            Assert.True(_orders.TryGetSlot(orderId, out int slot));
            Assert.True(Index.Remove(_orders[slot].ClOrdIdHash, slot));
            _orders.Release(slot);
        }

        public void CheckLookup(int owner, string id)
        {
            bool found = Index.TryFind(HashOf(owner, id), owner, ClOrdId.From(id), out int slot);
            Assert.Equal(_reference.TryGetValue((owner, id), out long orderId), found);
            if (found)
            {
                Assert.Equal(orderId, _orders[slot].OrderId);
            }
        }

        public void CheckAll()
        {
            Assert.Equal(_reference.Count, Index.Count);
            foreach (((int owner, string id), long orderId) in _reference)
            {
                Assert.True(Index.TryFind(HashOf(owner, id), owner, ClOrdId.From(id), out int slot), $"lost {owner}/{id}");
                Assert.Equal(orderId, _orders[slot].OrderId);
            }
        }
    }
}
