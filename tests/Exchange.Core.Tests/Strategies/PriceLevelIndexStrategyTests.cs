using Exchange.Strategies.LevelIndexes;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Core.Tests.Strategies;

// One class per IPriceLevelIndex strategy; each runs the whole contract suite in PriceLevelIndexContractTests<TIndex>.
// To cover another strategy, add a class here; give it the zero-allocation [Fact] only if it promises zero
// allocation after Initialize.

/// <summary>The sorted array (best price at the end); it allocates only when it grows.</summary>
[Collection(ZeroAllocationCollection.Name)]
public sealed class SortedArrayLevelIndexTests : PriceLevelIndexContractTests<SortedArrayLevelIndex>
{
    [Fact]
    public void Steady_state_allocates_nothing_after_initialize() => AssertSteadyStateAllocatesNothing();
}

/// <summary>The balanced-tree baseline; it allocates a node per added level, so it has no zero-allocation test.</summary>
[Collection(ZeroAllocationCollection.Name)]
public sealed class SortedTreeLevelIndexTests : PriceLevelIndexContractTests<SortedTreeLevelIndex>;

[Collection(ZeroAllocationCollection.Name)]
public sealed class TickLadderLevelIndexTests : PriceLevelIndexContractTests<TickLadderLevelIndex>
{
    [Fact]
    public void Steady_state_allocates_nothing_after_initialize() => AssertSteadyStateAllocatesNothing();
}
