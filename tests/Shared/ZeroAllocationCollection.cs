using Xunit;

namespace Exchange.Tests.Shared;

/// <summary>
/// Test classes that assert a zero allocation delta join this collection, which xUnit runs alone after the parallel
/// tests, so other tests' threads neither allocate nor collect during a measurement. The per-thread counter is exact
/// only with blocking collections (a background one can add a sub-8 KiB delta to a thread that allocated nothing), so
/// tests/Directory.Build.props turns concurrent GC off; <see cref="AllocationCounterTests"/> checks both.
/// Linked into every test project by tests/Directory.Build.props.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ZeroAllocationCollection
{
    public const string Name = "Zero allocation";
}
