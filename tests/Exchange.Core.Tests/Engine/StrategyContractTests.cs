using Exchange.Core.Strategies;
using Exchange.Strategies.LevelIndexes;
using Exchange.Strategies.OrderLists;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// Each strategy on its own against a plain model (SortedDictionary / List), with seeded random operations, so a
/// strategy bug shows here with a small repro before it shows as an engine difference.
/// </summary>
public class StrategyContractTests
{
    public static IEnumerable<object[]> LevelIndexTypes => StrategyMatrix.LevelIndexTypes.Select(t => new object[] { t.Name });

    public static IEnumerable<object[]> OrderListTypes => StrategyMatrix.OrderListTypes.Select(t => new object[] { t.Name });

    [Theory]
    [MemberData(nameof(LevelIndexTypes))]
    public void Level_index_behaves_like_a_sorted_map_on_both_sides(string typeName)
    {
        Type type = StrategyMatrix.LevelIndexTypes.Single(t => t.Name == typeName);
        typeof(StrategyContractTests).GetMethod(nameof(CheckLevelIndex), System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)!
            .MakeGenericMethod(type).Invoke(null, null);
    }

    [Theory]
    [MemberData(nameof(OrderListTypes))]
    public void Order_list_behaves_like_a_fifo_with_removal_anywhere(string typeName)
    {
        Type type = StrategyMatrix.OrderListTypes.Single(t => t.Name == typeName);
        typeof(StrategyContractTests).GetMethod(nameof(CheckOrderList), System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)!
            .MakeGenericMethod(type).Invoke(null, null);
    }

    private static void CheckLevelIndex<TIndex>()
        where TIndex : struct, IPriceLevelIndex
    {
        foreach (bool bids in new[] { true, false })
        {
            var random = new Random(bids ? 5 : 6);
            var index = default(TIndex);
            index.Initialize(bids, TestInstruments.MinPrice, TestInstruments.MaxPrice, TestInstruments.Tick);
            var model = new SortedDictionary<long, int>();
            for (int step = 0; step < 20_000; step++)
            {
                // Mostly near the top, sometimes deep, and both band edges.
                long price = random.Next(10) switch
                {
                    0 => TestInstruments.MinPrice,
                    1 => TestInstruments.MaxPrice,
                    < 5 => TestInstruments.P(random.Next(-500, 501)),
                    _ => TestInstruments.P(random.Next(-20, 21)),
                };
                bool present = model.ContainsKey(price);
                Assert.Equal(present, index.TryGet(price, out int found));
                if (present)
                {
                    Assert.Equal(model[price], found);
                    if (random.Next(2) == 0)
                    {
                        index.Remove(price);
                        model.Remove(price);
                    }
                }
                else if (model.Count < 300 || random.Next(3) == 0)
                {
                    index.Add(price, step);
                    model.Add(price, step);
                }

                Assert.Equal(model.Count, index.Count);
                if (step % 211 == 0)
                {
                    var expected = (bids ? model.Reverse() : model).Select(kv => (kv.Key, kv.Value)).ToList();
                    var visitor = new CollectingVisitor(new List<(long, int)>(), int.MaxValue);
                    index.VisitFromBest(ref visitor);
                    Assert.Equal(expected, visitor.Seen);
                    var top3 = new CollectingVisitor(new List<(long, int)>(), 3);
                    index.VisitFromBest(ref top3);
                    Assert.Equal(expected.Take(3), top3.Seen);
                    Assert.Equal(expected.Count > 0, index.TryGetBest(out long bestPrice, out int bestLevel));
                    if (expected.Count > 0)
                    {
                        Assert.Equal(expected[0], (bestPrice, bestLevel));
                    }
                }
            }
        }
    }

    private static void CheckOrderList<TList>()
        where TList : struct, IOrderList
    {
        var random = new Random(9);
        var links = new OrderListLinks[4096];
        var lists = new TList[4];
        var models = new List<int>[4];
        for (int i = 0; i < lists.Length; i++)
        {
            lists[i].Clear();
            models[i] = [];
        }

        var free = new Stack<int>(Enumerable.Range(0, links.Length).Reverse());
        for (int step = 0; step < 50_000; step++)
        {
            int which = random.Next(lists.Length);
            List<int> model = models[which];
            int roll = random.Next(100);
            if (roll < 50 && free.Count > 0)
            {
                int slot = free.Pop();
                lists[which].AddLast(links, slot);
                model.Add(slot);
            }
            else if (model.Count > 0)
            {
                // Front removals dominate (fills), the rest are cancels anywhere.
                int position = roll < 80 ? 0 : random.Next(model.Count);
                int slot = model[position];
                lists[which].Remove(links, slot);
                model.RemoveAt(position);
                free.Push(slot);
            }

            if (step % 97 == 0 || model.Count < 3)
            {
                Assert.Equal(model.Count, lists[which].Count);
                var walked = new List<int>();
                for (int slot = lists[which].First(links); slot >= 0; slot = lists[which].Next(links, slot))
                {
                    walked.Add(slot);
                }

                Assert.Equal(model, walked);
            }

            if (step % 10_000 == 9_999)
            {
                // A cleared list is reusable (what the level pool does when it hands out a slot again).
                foreach (int slot in model)
                {
                    lists[which].Remove(links, slot);
                    free.Push(slot);
                }

                model.Clear();
                lists[which].Clear();
                Assert.Equal(-1, lists[which].First(links));
            }
        }
    }

    private struct CollectingVisitor(List<(long, int)> seen, int limit) : ILevelVisitor
    {
        public readonly List<(long, int)> Seen => seen;

        public readonly bool Visit(long price, int level)
        {
            seen.Add((price, level));
            return seen.Count < limit;
        }
    }
}
