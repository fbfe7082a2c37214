using Exchange.Core.Strategies;
using Xunit;

namespace Exchange.Core.Tests.Strategies;

/// <summary>
/// The <see cref="IPriceLevelIndex"/> contract, checked against a <see cref="SortedDictionary{TKey, TValue}"/> model on
/// both sides of the book. Every strategy gets the same tests by deriving a concrete class (see
/// PriceLevelIndexStrategyTests.cs). The band and tick are deliberately not 1 and not 0-based so index arithmetic shows.
/// </summary>
public abstract class PriceLevelIndexContractTests<TIndex>
    where TIndex : struct, IPriceLevelIndex
{
    protected const long MinPrice = 10_000;
    protected const long TickSize = 25;
    protected const int TickCount = 400;
    protected const long MaxPrice = MinPrice + TickSize * TickCount;

    [Theory]
    [InlineData(1, true)]
    [InlineData(1, false)]
    [InlineData(2, true)]
    [InlineData(2, false)]
    [InlineData(3, true)]
    [InlineData(3, false)]
    public void Random_operations_match_a_sorted_dictionary_model(int seed, bool bestIsHighest)
    {
        const int Steps = 4_000;
        var random = new Random(seed);
        TIndex index = NewIndex(bestIsHighest);
        var model = new SortedDictionary<long, int>();
        int nextLevel = 0;
        for (int step = 0; step < Steps; step++)
        {
            string where = $"seed {seed}, bids {bestIsHighest}, step {step}";
            // Alternate building and thinning phases so depth swings between empty and a few hundred levels.
            int addPercent = step / 500 % 2 == 0 ? 60 : 30;
            int roll = random.Next(100);
            if (roll < addPercent || model.Count == 0)
            {
                long price = PickPrice(random, model, bestIsHighest);
                if (model.ContainsKey(price))
                {
                    Assert.True(index.TryGet(price, out int existing), where);
                    Assert.Equal(model[price], existing);
                }
                else
                {
                    index.Add(price, nextLevel);
                    model.Add(price, nextLevel);
                    nextLevel++;
                }
            }
            else if (roll < addPercent + 15)
            {
                // The top level empties: the most common removal in a real book.
                long best = Best(model, bestIsHighest);
                index.Remove(best);
                model.Remove(best);
            }
            else if (roll < addPercent + 35)
            {
                long price = model.Keys.ElementAt(random.Next(model.Count));
                index.Remove(price);
                model.Remove(price);
            }
            else if (roll < addPercent + 55)
            {
                long price = PickPrice(random, model, bestIsHighest);
                bool expectedFound = model.TryGetValue(price, out int expectedLevel);
                Assert.Equal(expectedFound, index.TryGet(price, out int level));
                if (expectedFound)
                {
                    Assert.Equal(expectedLevel, level);
                }
            }
            else
            {
                AssertVisit(index, model, bestIsHighest, limit: random.Next(1, model.Count + 3), where);
            }

            AssertBest(index, model, bestIsHighest, where);
            if (step % 50 == 0)
            {
                AssertVisit(index, model, bestIsHighest, limit: int.MaxValue, where);
            }
        }
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void An_empty_side_has_no_best_and_visits_nothing(bool bestIsHighest)
    {
        TIndex index = NewIndex(bestIsHighest);

        Assert.Equal(0, index.Count);
        Assert.False(index.TryGetBest(out _, out _));
        Assert.False(index.TryGet(MinPrice, out _));
        AssertVisit(index, [], bestIsHighest, limit: int.MaxValue, "empty");
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Levels_at_both_band_edges_are_found_ordered_and_removed(bool bestIsHighest)
    {
        TIndex index = NewIndex(bestIsHighest);
        index.Add(MinPrice, 7);
        index.Add(MaxPrice, 8);
        var model = new SortedDictionary<long, int> { [MinPrice] = 7, [MaxPrice] = 8 };

        AssertBest(index, model, bestIsHighest, "two edges");
        AssertVisit(index, model, bestIsHighest, limit: int.MaxValue, "two edges");
        Assert.True(index.TryGet(MinPrice, out int low));
        Assert.Equal(7, low);
        Assert.True(index.TryGet(MaxPrice, out int high));
        Assert.Equal(8, high);

        long best = Best(model, bestIsHighest);
        index.Remove(best);
        model.Remove(best);
        AssertBest(index, model, bestIsHighest, "after removing the best edge");

        index.Remove(model.Keys.Single());
        Assert.Equal(0, index.Count);
        Assert.False(index.TryGetBest(out _, out _));
        AssertVisit(index, [], bestIsHighest, limit: int.MaxValue, "emptied");
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Visit_stops_as_soon_as_the_visitor_returns_false(bool bestIsHighest)
    {
        TIndex index = NewIndex(bestIsHighest);
        var model = new SortedDictionary<long, int>();
        for (int i = 0; i < 6; i++)
        {
            long price = MinPrice + (i * 37 % TickCount) * TickSize;
            index.Add(price, i);
            model.Add(price, i);
        }

        AssertVisit(index, model, bestIsHighest, limit: 1, "limit 1");
        AssertVisit(index, model, bestIsHighest, limit: 2, "limit 2");
        AssertVisit(index, model, bestIsHighest, limit: 6, "limit 6");
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Prices_are_multiples_of_the_tick_even_when_the_band_edges_are_not(bool bestIsHighest)
    {
        // Instrument: a valid price is a multiple of the tick inside the band, and the band's edges need not be one.
        TIndex index = default;
        index.Initialize(bestIsHighest, minPrice: 10_010, maxPrice: 10_990, tickSize: 25);
        var model = new SortedDictionary<long, int> { [10_025] = 1, [10_500] = 2, [10_975] = 3 };
        foreach ((long price, int level) in model)
        {
            index.Add(price, level);
        }

        AssertBest(index, model, bestIsHighest, "off-tick band");
        AssertVisit(index, model, bestIsHighest, limit: int.MaxValue, "off-tick band");
        Assert.True(index.TryGet(10_500, out int middle));
        Assert.Equal(2, middle);
        Assert.False(index.TryGet(10_475, out _));
        Assert.False(index.TryGet(10_525, out _));

        long best = Best(model, bestIsHighest);
        index.Remove(best);
        model.Remove(best);
        AssertBest(index, model, bestIsHighest, "off-tick band, best removed");
        AssertVisit(index, model, bestIsHighest, limit: int.MaxValue, "off-tick band, best removed");
    }

    /// <summary>
    /// Asserts that a fixed mix of adds, removes, lookups and walks allocates nothing once the index is initialised.
    /// Strategies that promise zero allocation call this from a [Fact] in their concrete test class.
    /// </summary>
    protected static void AssertSteadyStateAllocatesNothing()
    {
        foreach (bool bestIsHighest in (ReadOnlySpan<bool>)[true, false])
        {
            TIndex index = NewIndex(bestIsHighest);
            RunFixedWorkload(ref index, bestIsHighest);

            long before = GC.GetAllocatedBytesForCurrentThread();
            long checksum = 0;
            for (int round = 0; round < 20; round++)
            {
                checksum += RunFixedWorkload(ref index, bestIsHighest);
            }

            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.Equal(0, allocated);
            Assert.NotEqual(0, checksum);
            Assert.Equal(0, index.Count);
        }
    }

    protected static TIndex NewIndex(bool bestIsHighest)
    {
        TIndex index = default;
        index.Initialize(bestIsHighest, MinPrice, MaxPrice, TickSize);
        return index;
    }

    /// <summary>
    /// Builds a 201-level side on even ticks, churns levels within 15 ticks of the top (re-adding existing ones, adding
    /// and removing new ones in the gaps), walks the top 50, then empties the side from the best end.
    /// </summary>
    private static long RunFixedWorkload(ref TIndex index, bool bestIsHighest)
    {
        long towardWorse = bestIsHighest ? -TickSize : TickSize;
        long checksum = 0;
        for (int tick = 0; tick <= TickCount; tick += 2)
        {
            index.Add(MinPrice + tick * TickSize, tick);
        }

        for (int i = 0; i < 300; i++)
        {
            index.TryGetBest(out long best, out _);
            long price = best + towardWorse * (i % 15);
            if (index.TryGet(price, out int level))
            {
                index.Remove(price);
                index.Add(price, level);
            }
            else
            {
                index.Add(price, i);
                index.Remove(price);
            }

            checksum += level;
        }

        var sum = new SummingVisitor { Limit = 50 };
        index.VisitFromBest(ref sum);
        checksum += sum.Total;

        while (index.TryGetBest(out long best, out int level))
        {
            index.Remove(best);
            checksum += level;
        }

        return checksum;
    }

    private static long PickPrice(Random random, SortedDictionary<long, int> model, bool bestIsHighest)
    {
        // Half near the top of the book, where real flow concentrates; half anywhere in the band, edges included.
        int tick = random.Next(TickCount + 1);
        if (model.Count > 0 && random.Next(2) == 0)
        {
            long bestTick = (Best(model, bestIsHighest) - MinPrice) / TickSize;
            tick = (int)Math.Clamp(bestTick + random.Next(-5, 21) * (bestIsHighest ? -1 : 1), 0, TickCount);
        }

        return MinPrice + tick * TickSize;
    }

    private static long Best(SortedDictionary<long, int> model, bool bestIsHighest) =>
        bestIsHighest ? model.Keys.Last() : model.Keys.First();

    private static void AssertBest(TIndex index, SortedDictionary<long, int> model, bool bestIsHighest, string where)
    {
        Assert.Equal(model.Count, index.Count);
        bool found = index.TryGetBest(out long price, out int level);
        Assert.Equal(model.Count > 0, found);
        if (found)
        {
            long expected = Best(model, bestIsHighest);
            if (price != expected || level != model[expected])
            {
                Assert.Fail($"{where}: best expected {expected} -> {model[expected]}, got {price} -> {level}.");
            }
        }
    }

    private static void AssertVisit(
        TIndex index, SortedDictionary<long, int> model, bool bestIsHighest, int limit, string where)
    {
        IEnumerable<KeyValuePair<long, int>> bestFirst = bestIsHighest ? model.Reverse() : model;
        var expected = bestFirst.Take(limit).Select(pair => (pair.Key, pair.Value)).ToList();
        var seen = new List<(long, int)>();
        var visitor = new CollectingVisitor(seen, limit);
        index.VisitFromBest(ref visitor);
        if (!expected.SequenceEqual(seen))
        {
            Assert.Fail(
                $"{where}, limit {limit}: expected [{string.Join(", ", expected)}], got [{string.Join(", ", seen)}].");
        }
    }

    /// <summary>Records every call, so a walk that goes on after the visitor said stop is caught.</summary>
    private readonly struct CollectingVisitor(List<(long, int)> seen, int limit) : ILevelVisitor
    {
        public bool Visit(long price, int level)
        {
            seen.Add((price, level));
            return seen.Count < limit;
        }
    }

    private struct SummingVisitor : ILevelVisitor
    {
        public int Limit;
        public long Total;
        private int _visited;

        public bool Visit(long price, int level)
        {
            Total += price + level;
            return ++_visited < Limit;
        }
    }
}
