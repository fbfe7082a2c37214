using Exchange.Core.Strategies;
using Xunit;

namespace Exchange.Core.Tests.Strategies;

/// <summary>
/// The <see cref="IOrderList"/> contract, checked against a plain <see cref="List{T}"/> model. Every strategy gets the
/// same tests by deriving a concrete class (see OrderListStrategyTests.cs). Several lists share one links array, as the
/// levels of a book do, so a strategy that writes another list's bookkeeping fails here.
/// </summary>
public abstract class OrderListContractTests<TList>
    where TList : struct, IOrderList
{
    [Theory]
    [InlineData(1, 16, 3, 4_000)]
    [InlineData(2, 64, 4, 4_000)]
    [InlineData(3, 700, 1, 6_000)]
    [InlineData(4, 700, 3, 6_000)]
    public void Random_operations_match_a_list_model(int seed, int slotCount, int listCount, int steps)
    {
        var random = new Random(seed);
        var links = new OrderListLinks[slotCount];
        TList[] lists = NewLists(listCount);
        var model = new List<int>[listCount];
        for (int i = 0; i < listCount; i++)
        {
            model[i] = [];
        }

        var free = new List<int>(Enumerable.Range(0, slotCount));
        int phaseLength = Math.Max(1, steps / 6);
        for (int step = 0; step < steps; step++)
        {
            // Alternate filling and draining phases so lists grow large, empty out and are reused.
            int addPercent = step / phaseLength % 2 == 0 ? 65 : 35;
            int l = random.Next(listCount);
            List<int> expected = model[l];
            int roll = random.Next(100);
            if (free.Count > 0 && (roll < addPercent || expected.Count == 0))
            {
                int slot = TakeRandom(free, random);
                lists[l].AddLast(links, slot);
                expected.Add(slot);
            }
            else if (expected.Count > 0 && roll < addPercent + 15)
            {
                // A fill: the order with time priority leaves.
                int slot = expected[0];
                Assert.Equal(slot, lists[l].First(links));
                lists[l].Remove(links, slot);
                expected.RemoveAt(0);
                free.Add(slot);
            }
            else if (expected.Count > 0)
            {
                // A cancel: any order leaves.
                int slot = expected[random.Next(expected.Count)];
                lists[l].Remove(links, slot);
                expected.Remove(slot);
                free.Add(slot);
            }
            else
            {
                // An empty level goes back to the pool and is taken again.
                lists[l].Clear();
            }

            AssertMatches(expected, lists[l], links, $"seed {seed}, step {step}, list {l}");
            if (step % 97 == 0)
            {
                for (int i = 0; i < listCount; i++)
                {
                    AssertMatches(model[i], lists[i], links, $"seed {seed}, step {step}, list {i} (full check)");
                }
            }
        }
    }

    [Theory]
    [InlineData(11)]
    [InlineData(12)]
    [InlineData(13)]
    public void Removing_the_current_order_during_a_walk_keeps_the_walk_valid(int seed)
    {
        // The matcher's sweep: read Next, then remove the order just filled. Compaction or relinking triggered by the
        // removal must not break the walk.
        const int SlotCount = 300;
        var random = new Random(seed);
        var links = new OrderListLinks[SlotCount];
        TList[] lists = NewLists(1);
        var expected = Enumerable.Range(0, SlotCount).OrderBy(_ => random.Next()).ToList();
        foreach (int slot in expected)
        {
            lists[0].AddLast(links, slot);
        }

        while (expected.Count > 0)
        {
            var visited = new List<int>();
            var removed = new HashSet<int>();
            for (int slot = lists[0].First(links); slot != -1;)
            {
                Assert.True(visited.Count < SlotCount, "The walk does not end.");
                visited.Add(slot);
                int next = lists[0].Next(links, slot);
                if (random.Next(100) < 40)
                {
                    lists[0].Remove(links, slot);
                    removed.Add(slot);
                }

                slot = next;
            }

            Assert.Equal(expected, visited);
            expected.RemoveAll(removed.Contains);
            AssertMatches(expected, lists[0], links, $"seed {seed}, after a walk");
        }
    }

    [Fact]
    public void A_cleared_list_is_empty()
    {
        var links = new OrderListLinks[4];
        TList[] lists = NewLists(1);

        Assert.Equal(0, lists[0].Count);
        Assert.Equal(-1, lists[0].First(links));
    }

    [Fact]
    public void Clear_empties_a_populated_list_and_its_orders_can_queue_again()
    {
        var links = new OrderListLinks[10];
        TList[] lists = NewLists(1);
        for (int slot = 0; slot < 10; slot++)
        {
            lists[0].AddLast(links, slot);
        }

        lists[0].Clear();
        AssertMatches([], lists[0], links, "after Clear");

        int[] requeued = [9, 3, 5, 0];
        foreach (int slot in requeued)
        {
            lists[0].AddLast(links, slot);
        }

        AssertMatches(requeued, lists[0], links, "after requeue");
    }

    [Fact]
    public void Steady_state_allocates_nothing_after_warm_up()
    {
        const int SlotCount = 512;
        const int ListCount = 4;
        var links = new OrderListLinks[SlotCount];
        TList[] lists = NewLists(ListCount);

        // Warm-up: every slot is used once and every list reaches the peak length of the measured work.
        RunFixedWorkload(lists, links);

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int round = 0; round < 20; round++)
        {
            RunFixedWorkload(lists, links);
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        for (int i = 0; i < ListCount; i++)
        {
            AssertMatches([], lists[i], links, $"list {i} after the workload");
        }
    }

    /// <summary>Queue, cancel a third from the middle, requeue those at the back (a replace), walk, then fill all.</summary>
    private static void RunFixedWorkload(TList[] lists, OrderListLinks[] links)
    {
        int slotCount = links.Length;
        for (int slot = 0; slot < slotCount; slot++)
        {
            lists[slot % lists.Length].AddLast(links, slot);
        }

        for (int slot = 1; slot < slotCount; slot += 3)
        {
            lists[slot % lists.Length].Remove(links, slot);
        }

        for (int slot = 1; slot < slotCount; slot += 3)
        {
            lists[slot % lists.Length].AddLast(links, slot);
        }

        for (int i = 0; i < lists.Length; i++)
        {
            int walked = 0;
            for (int slot = lists[i].First(links); slot != -1; slot = lists[i].Next(links, slot))
            {
                walked++;
            }

            if (walked != lists[i].Count)
            {
                // Not Assert.Equal: this runs inside the allocation measurement.
                throw new InvalidOperationException($"Walked {walked} orders, Count is {lists[i].Count}.");
            }

            for (int slot = lists[i].First(links); slot != -1; slot = lists[i].First(links))
            {
                lists[i].Remove(links, slot);
            }
        }
    }

    private static TList[] NewLists(int count)
    {
        var lists = new TList[count];
        for (int i = 0; i < count; i++)
        {
            lists[i].Clear();
        }

        return lists;
    }

    private static int TakeRandom(List<int> pool, Random random)
    {
        int index = random.Next(pool.Count);
        int value = pool[index];
        pool[index] = pool[^1];
        pool.RemoveAt(pool.Count - 1);
        return value;
    }

    /// <summary>The list's orders by First/Next; stops after <paramref name="limit"/> so a cycle fails instead of hanging.</summary>
    private static List<int> Walk(TList list, OrderListLinks[] links, int limit)
    {
        var walked = new List<int>();
        for (int slot = list.First(links); slot != -1 && walked.Count < limit; slot = list.Next(links, slot))
        {
            walked.Add(slot);
        }

        return walked;
    }

    private static void AssertMatches(IReadOnlyList<int> expected, TList list, OrderListLinks[] links, string where)
    {
        List<int> actual = Walk(list, links, expected.Count + 1);
        if (!expected.SequenceEqual(actual) || list.Count != expected.Count)
        {
            Assert.Fail(
                $"{where}: expected [{string.Join(", ", expected)}] (Count {expected.Count}), " +
                $"got [{string.Join(", ", actual)}] (Count {list.Count}).");
        }
    }
}
