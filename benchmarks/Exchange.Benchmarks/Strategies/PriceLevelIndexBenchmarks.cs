using BenchmarkDotNet.Attributes;
using Exchange.Core.Strategies;
using Exchange.Strategies.LevelIndexes;

namespace Exchange.Benchmarks.Strategies;

/// <summary>
/// Strategy family 2 on the same work: one book side of <see cref="Depth"/> levels, with lookups, inserts and deletes
/// concentrated near the top as in real flow (the CppTrader study measured an average insertion depth of about 15
/// levels from the best), top-of-book churn, and the top-10 walk a market-data publish does.
/// </summary>
/// <remarks>
/// The side holds levels on every other tick, so a price one tick worse than the level at depth d is free and inserting
/// there lands at depth d + 1. Depths follow an exponential distribution with mean 15, capped by the book's depth, and
/// are drawn once in setup from a fixed seed. Every benchmark leaves the side as it found it. The index is a struct
/// field reached through the class's generic parameter, so every call is direct, as in the engine. Each invocation does
/// <see cref="OperationsPerInvoke"/> operations and BenchmarkDotNet reports the time per operation.
/// </remarks>
[MemoryDiagnoser]
[GenericTypeArguments(typeof(SortedTreeLevelIndex))]
[GenericTypeArguments(typeof(TickLadderLevelIndex))]
[GenericTypeArguments(typeof(SortedArrayLevelIndex))]
public class PriceLevelIndexBenchmarks<TIndex>
    where TIndex : struct, IPriceLevelIndex
{
    private const int OperationsPerInvoke = 1024;
    private const double MeanDepth = 15;

    // A $100 stock in LOBSTER units (1/10000 $) with a one-cent tick and a band of 20,000 ticks around it.
    private const long TickSize = 100;
    private const long MinPrice = 900_000;
    private const long MaxPrice = MinPrice + 20_000 * TickSize;
    private const long BestPrice = 1_000_000;

    private TIndex _index;
    private long[] _existingPrices = [];
    private long[] _freePrices = [];

    [Params(50, 500)]
    public int Depth { get; set; }

    /// <summary>True for the bid side (best is highest), false for the ask side.</summary>
    [ParamsAllValues]
    public bool Bids { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        long towardWorse = Bids ? -TickSize : TickSize;
        _index = default;
        _index.Initialize(Bids, MinPrice, MaxPrice, TickSize);
        for (int depth = 0; depth < Depth; depth++)
        {
            _index.Add(BestPrice + 2 * depth * towardWorse, depth);
        }

        var random = new Random(42);
        _existingPrices = new long[OperationsPerInvoke];
        _freePrices = new long[OperationsPerInvoke];
        for (int i = 0; i < OperationsPerInvoke; i++)
        {
            int depth = (int)Math.Min(Depth - 1, -MeanDepth * Math.Log(1 - random.NextDouble()));
            _existingPrices[i] = BestPrice + 2 * depth * towardWorse;
            _freePrices[i] = _existingPrices[i] + towardWorse;
        }
    }

    /// <summary>Find the level at a price that has one (an order joining an existing level).</summary>
    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public int FindNearTop()
    {
        int sum = 0;
        foreach (long price in _existingPrices)
        {
            _index.TryGet(price, out int level);
            sum += level;
        }

        return sum;
    }

    /// <summary>Insert a new level near the top, then delete it (an order opening and leaving a price).</summary>
    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public int InsertThenDeleteNearTop()
    {
        int level = Depth;
        foreach (long price in _freePrices)
        {
            _index.Add(price, level);
            _index.Remove(price);
        }

        return _index.Count;
    }

    /// <summary>Empty the best level and open it again (the top of book traded away and refilled).</summary>
    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public long RemoveAndRestoreBest()
    {
        long sum = 0;
        for (int i = 0; i < OperationsPerInvoke; i++)
        {
            _index.TryGetBest(out long price, out int level);
            _index.Remove(price);
            _index.Add(price, level);
            sum += level;
        }

        return sum;
    }

    /// <summary>Read the best level (what every incoming order checks first).</summary>
    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public long TryGetBest()
    {
        long sum = 0;
        for (int i = 0; i < OperationsPerInvoke; i++)
        {
            _index.TryGetBest(out long price, out int level);
            sum += price + level;
        }

        return sum;
    }

    /// <summary>Walk the top 10 levels (a market-data publish).</summary>
    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public long VisitTop10()
    {
        var visitor = new TopLevels(10);
        for (int i = 0; i < OperationsPerInvoke; i++)
        {
            visitor.Remaining = 10;
            _index.VisitFromBest(ref visitor);
        }

        return visitor.Checksum;
    }

    private struct TopLevels(int count) : ILevelVisitor
    {
        public int Remaining = count;
        public long Checksum;

        public bool Visit(long price, int level)
        {
            Checksum += price ^ level;
            return --Remaining > 0;
        }
    }
}
