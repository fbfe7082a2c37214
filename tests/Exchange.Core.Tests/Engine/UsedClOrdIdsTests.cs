using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// The day's set of used (owner, ClOrdID): against a HashSet on random ids and days, with forced hash collisions (so
/// exactness rests on the key compare and probe runs are long and wrap), and at its limits: full, a new day, and the
/// stamp wrap that clears the table.
/// </summary>
public class UsedClOrdIdsTests
{
    [Theory]
    [InlineData(false, 1)]
    [InlineData(false, 2)]
    [InlineData(true, 3)]
    public void Random_records_marks_and_new_days_match_a_dictionary(bool collide, int seed)
    {
        const int capacity = 700;
        var used = new UsedClOrdIds(capacity);
        var expected = new Dictionary<(int, string), UsedIdOrder>();
        var stamps = new List<(uint Stamp, (int, string) Key)>();
        var todaysStamps = new Dictionary<(int, string), uint>();
        var random = new Random(seed);
        string[] ids = Enumerable.Range(0, 2_000).Select(i => $"id{i}").ToArray();
        int fullDays = 0;
        long nextOrderId = 1;

        for (int i = 0; i < 50_000; i++)
        {
            if (random.Next(2_000) == 0)
            {
                fullDays += used.IsFull ? 1 : 0;
                used.StartNewDay();
                expected.Clear();
                todaysStamps.Clear();
            }

            int owner = random.Next(3);
            string id = ids[random.Next(ids.Length)];
            ClOrdId clOrdId = ClOrdId.From(id);
            ulong hash = HashOf(owner, clOrdId, collide);
            bool found = used.Contains(hash, owner, clOrdId, out int freeBucket);
            Assert.Equal(expected.ContainsKey((owner, id)), found);
            Assert.Equal(found, used.TryGetOrder(hash, owner, clOrdId, out UsedIdOrder order));
            if (found)
            {
                Assert.Equal(expected[(owner, id)], order);
            }
            else if (!used.IsFull)
            {
                var named = new UsedIdOrder { OrderId = nextOrderId++, InstrumentId = random.Next(4) };
                uint stamp = used.Record(freeBucket, hash, owner, clOrdId, named.OrderId, named.InstrumentId);
                stamps.Add((stamp, (owner, id)));
                todaysStamps.Add((owner, id), stamp);
                expected.Add((owner, id), named);
            }

            // Mark a random order recorded so far, today's or (stamp of an earlier day) one the set must ignore.
            if (stamps.Count > 0 && random.Next(3) == 0)
            {
                (uint stamp, (int, string) key) = stamps[random.Next(stamps.Count)];
                bool today = todaysStamps.TryGetValue(key, out uint todays) && todays == stamp;
                if (random.Next(2) == 0)
                {
                    var reason = (CancelReason)random.Next(0, 8);
                    long cumulative = random.Next(100);
                    used.MarkEnded(stamp, reason, Side.Sell, 100, cumulative, cumulative * 7);
                    if (today)
                    {
                        expected[key] = expected[key] with
                        {
                            EndReason = reason, Side = Side.Sell, OrderQuantity = 100, CumulativeQuantity = cumulative, CumulativeNotional = cumulative * 7,
                        };
                    }
                }
                else
                {
                    uint successor = (uint)random.Next(1, int.MaxValue);
                    used.MarkSuperseded(stamp, successor);
                    if (today)
                    {
                        expected[key] = expected[key] with { SupersededBy = successor };
                    }
                }
            }

            Assert.Equal(expected.Count, used.Count);
        }

        Assert.True(fullDays > 3, $"only {fullDays} days filled the set");
    }

    [Fact]
    public void The_last_order_of_an_id_follows_the_replaces_and_then_links_every_id_passed_to_it()
    {
        var used = new UsedClOrdIds(16);
        string[] chain = ["a", "b", "c", "d"];
        var stamps = new uint[chain.Length];
        for (int i = 0; i < chain.Length; i++)
        {
            ClOrdId id = ClOrdId.From(chain[i]);
            Assert.False(used.Contains((ulong)i, 1, id, out int free));
            stamps[i] = used.Record(free, (ulong)i, 1, id, orderId: 10, instrumentId: 2);
            if (i > 0)
            {
                used.MarkSuperseded(stamps[i - 1], stamps[i]);
            }
        }

        used.MarkEnded(stamps[^1], CancelReason.Requested, Side.Buy, 10, 4, 40);
        var last = new UsedIdOrder
        {
            OrderId = 10, InstrumentId = 2, EndReason = CancelReason.Requested, Side = Side.Buy, OrderQuantity = 10, CumulativeQuantity = 4,
            CumulativeNotional = 40,
        };

        Assert.True(used.TryGetLastOrder(1, 1, ClOrdId.From("b"), out UsedIdOrder order));
        Assert.Equal(last, order);

        // b and c now point at d; a, not passed, still at b.
        Assert.True(used.TryGetOrder(1, 1, ClOrdId.From("b"), out order));
        Assert.Equal(stamps[3], order.SupersededBy);
        Assert.True(used.TryGetOrder(2, 1, ClOrdId.From("c"), out order));
        Assert.Equal(stamps[3], order.SupersededBy);
        Assert.True(used.TryGetOrder(0, 1, ClOrdId.From("a"), out order));
        Assert.Equal(stamps[1], order.SupersededBy);

        Assert.True(used.TryGetLastOrder(0, 1, ClOrdId.From("a"), out order));
        Assert.Equal(last, order);
        Assert.True(used.TryGetLastOrder(3, 1, ClOrdId.From("d"), out order));
        Assert.Equal(last, order);
        Assert.False(used.TryGetLastOrder(0, 2, ClOrdId.From("a"), out _));
    }

    [Fact]
    public void Marks_by_the_stamp_of_an_earlier_day_or_none_are_ignored()
    {
        var used = new UsedClOrdIds(4);
        ClOrdId a = ClOrdId.From("a");
        Assert.False(used.Contains(5, 1, a, out int free));
        uint yesterday = used.Record(free, 5, 1, a, orderId: 10, instrumentId: 2);
        used.StartNewDay();
        Assert.False(used.Contains(5, 1, a, out free));
        uint today = used.Record(free, 5, 1, a, orderId: 11, instrumentId: 2);

        used.MarkEnded(yesterday, CancelReason.Requested, Side.Buy, 10, 4, 40);
        used.MarkSuperseded(yesterday, today);
        used.MarkEnded(0, CancelReason.Requested, Side.Buy, 10, 4, 40);
        used.MarkSuperseded(0, today);
        Assert.True(used.TryGetOrder(5, 1, a, out UsedIdOrder order));
        Assert.Equal(new UsedIdOrder { OrderId = 11, InstrumentId = 2 }, order);

        used.MarkEnded(today, CancelReason.ImmediateOrCancelRemainder, Side.Sell, 10, 4, 40);
        used.MarkSuperseded(today, 99);
        Assert.True(used.TryGetOrder(5, 1, a, out order));
        Assert.Equal(
            new UsedIdOrder
            {
                OrderId = 11, InstrumentId = 2, EndReason = CancelReason.ImmediateOrCancelRemainder, SupersededBy = 99, Side = Side.Sell,
                OrderQuantity = 10, CumulativeQuantity = 4, CumulativeNotional = 40,
            },
            order);
    }

    [Fact]
    public void Owner_and_every_byte_of_the_id_tell_keys_apart_under_one_hash()
    {
        var used = new UsedClOrdIds(8);
        Record(used, 1, "abc", hash: 42);

        Assert.True(used.Contains(42, 1, ClOrdId.From("abc"), out _));
        Assert.False(used.Contains(42, 2, ClOrdId.From("abc"), out _));
        Assert.False(used.Contains(42, 1, ClOrdId.From("abd"), out _));
        Assert.False(used.Contains(42, 1, ClOrdId.From("abcd"), out _));
    }

    [Fact]
    public void A_new_day_forgets_every_id_and_restores_the_capacity()
    {
        var used = new UsedClOrdIds(2);
        Record(used, 1, "a", hash: 7);
        Record(used, 1, "b", hash: 7);
        Assert.True(used.IsFull);

        used.StartNewDay();

        Assert.Equal(0, used.Count);
        Assert.False(used.IsFull);
        Assert.False(used.Contains(7, 1, ClOrdId.From("a"), out _));

        // The new day's id lands in the bucket the stale "a" held; "b", further along the old run, is still not found.
        Record(used, 1, "b", hash: 7);
        Assert.True(used.Contains(7, 1, ClOrdId.From("b"), out _));
        Assert.False(used.Contains(7, 1, ClOrdId.From("a"), out _));
    }

    [Fact]
    public void Stamps_about_to_wrap_clear_the_table_and_stale_ids_stay_forgotten()
    {
        const int capacity = 4;
        var used = new UsedClOrdIds(capacity, firstStamp: uint.MaxValue - (2 * capacity) - 1);
        for (int day = 0; day < 5; day++)
        {
            foreach (string id in new[] { "w", "x", "y" })
            {
                Assert.False(used.Contains(9, 1, ClOrdId.From(id), out _), $"day {day}: {id} remembered from an earlier day");
                Record(used, 1, id, hash: 9);
            }

            Assert.True(used.Contains(9, 1, ClOrdId.From("x"), out _));
            used.StartNewDay();
        }
    }

    [Fact]
    public void Capacity_outside_one_to_the_largest_is_refused()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new UsedClOrdIds(0));
        Assert.Throws<ArgumentOutOfRangeException>(() => new UsedClOrdIds(EngineOptions.LargestMaxClOrdIdsPerDay + 1));
    }

    private static void Record(UsedClOrdIds used, int owner, string id, ulong hash)
    {
        ClOrdId clOrdId = ClOrdId.From(id);
        Assert.False(used.Contains(hash, owner, clOrdId, out int freeBucket));
        used.Record(freeBucket, hash, owner, clOrdId, orderId: 1, instrumentId: 0);
    }

    /// <summary>The real hash, or one of five (low and high halves alike) so that most keys share a home and a check.</summary>
    private static ulong HashOf(int owner, ClOrdId id, bool collide)
    {
        ulong hash = ClOrdIdIndex.Hash(owner, id);
        return collide ? (hash % 5) * 0x0000_0001_0000_0001UL + 0xFFFF_FFF0UL : hash;
    }
}
