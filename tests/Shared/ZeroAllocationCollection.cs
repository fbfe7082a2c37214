using Xunit;

namespace Exchange.Tests.Shared;

/// <summary>
/// Test classes that assert a zero allocation delta join this collection, which xUnit runs alone after the parallel
/// tests. Measured concurrently with allocation-heavy tests, the per-thread counter showed a rare sub-8 KiB delta in a
/// CI run (runtime accounting around collections triggered by other threads, not our code); alone it is exact.
/// Linked into every test project by tests/Directory.Build.props.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ZeroAllocationCollection
{
    public const string Name = "Zero allocation";
}
