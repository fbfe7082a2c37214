using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Core.Tests.Plugins;

// Types for catalog and factory tests. The two probes only need to be valid strategy TYPES (their members are never
// meant to run); the others each break one catalog rule. Real strategies live in src/Strategies and are tested there.

/// <summary>A valid order-list type; any attempt to use it as a list fails loudly.</summary>
public struct ProbeOrderList : IOrderList
{
    public readonly int Count => 0;

    public void Clear()
    {
    }

    public void AddLast(OrderListLinks[] links, int slot) => throw new NotSupportedException("type-only test strategy");

    public void Remove(OrderListLinks[] links, int slot) => throw new NotSupportedException("type-only test strategy");

    public readonly int First(OrderListLinks[] links) => -1;

    public readonly int Next(OrderListLinks[] links, int slot) => -1;
}

/// <summary>A valid price-level index type; any attempt to add levels fails loudly.</summary>
public struct ProbeLevelIndex : IPriceLevelIndex
{
    public readonly int Count => 0;

    public void Initialize(bool bestIsHighest, long minPrice, long maxPrice, long tickSize)
    {
    }

    public readonly bool TryGetBest(out long price, out int level)
    {
        (price, level) = (0, -1);
        return false;
    }

    public readonly bool TryGet(long price, out int level)
    {
        level = -1;
        return false;
    }

    public void Add(long price, int level) => throw new NotSupportedException("type-only test strategy");

    public void Remove(long price) => throw new NotSupportedException("type-only test strategy");

    public readonly void VisitFromBest<TVisitor>(ref TVisitor visitor)
        where TVisitor : struct, ILevelVisitor, allows ref struct
    {
    }
}

/// <summary>Breaks the rule that order lists are structs.</summary>
public sealed class ClassOrderList : IOrderList
{
    public int Count => 0;

    public void Clear()
    {
    }

    public void AddLast(OrderListLinks[] links, int slot) => throw new NotSupportedException();

    public void Remove(OrderListLinks[] links, int slot) => throw new NotSupportedException();

    public int First(OrderListLinks[] links) => -1;

    public int Next(OrderListLinks[] links, int slot) => -1;
}

/// <summary>Breaks the naming rule: no "OrderList" suffix, so it has no configuration name.</summary>
public struct ProbeQueue : IOrderList
{
    public readonly int Count => 0;

    public void Clear()
    {
    }

    public void AddLast(OrderListLinks[] links, int slot) => throw new NotSupportedException();

    public void Remove(OrderListLinks[] links, int slot) => throw new NotSupportedException();

    public readonly int First(OrderListLinks[] links) => -1;

    public readonly int Next(OrderListLinks[] links, int slot) => -1;
}

/// <summary>Breaks the rule that a market-data store can be created by name (no parameterless constructor).</summary>
public sealed class ConfiguredMarketDataStore(int capacity) : IMarketDataStore
{
    public int Capacity { get; } = capacity;

    public void Initialize(int instrumentCount) => throw new NotSupportedException();

    public void Publish(in BookDepth depth) => throw new NotSupportedException();

    public bool TryRead(int instrumentId, ref BookDepth destination) => throw new NotSupportedException();
}

/// <summary>Two stores whose configuration names collide ("Twin"), in different containing types.</summary>
public static class FirstVendor
{
    public sealed class TwinMarketDataStore : NoopMarketDataStore;
}

public static class SecondVendor
{
    public sealed class TwinMarketDataStore : NoopMarketDataStore;
}

/// <summary>Base of the twins: abstract, so it is a building block rather than a strategy.</summary>
public abstract class NoopMarketDataStore : IMarketDataStore
{
    public void Initialize(int instrumentCount)
    {
    }

    public void Publish(in BookDepth depth)
    {
    }

    public bool TryRead(int instrumentId, ref BookDepth destination) => false;
}
