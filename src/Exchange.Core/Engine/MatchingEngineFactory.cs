using System.Diagnostics.CodeAnalysis;
using System.Runtime.ExceptionServices;
using Exchange.Core.Domain;
using Exchange.Core.Plugins;

namespace Exchange.Core.Engine;

/// <summary>
/// Builds the engine closed over strategy types chosen at start-up (usually from <see cref="StrategyCatalog"/>), so the
/// strategies' calls inside the engine are direct and specialised by the JIT; the host pays one interface call per command.
/// </summary>
/// <remarks>
/// Closing a generic over value types at run time needs the JIT: a NativeAOT build cannot use this and instead names the
/// closed types in code (e.g. <c>new MatchingEngine&lt;IntrusiveListOrderList, SortedArrayLevelIndex&gt;(...)</c>).
/// </remarks>
public static class MatchingEngineFactory
{
    /// <summary>Creates <c>MatchingEngine&lt;orderListType, levelIndexType&gt;</c> for the given instruments.</summary>
    /// <exception cref="ArgumentException">A type is not a struct implementing its family's contract.</exception>
    [RequiresDynamicCode("Closes MatchingEngine<,> over strategy types at run time.")]
    [RequiresUnreferencedCode("Creates the engine by reflection.")]
    public static IMatchingEngine Create(
        Type orderListType,
        Type levelIndexType,
        IReadOnlyList<Instrument> instruments,
        EngineOptions options)
    {
        StrategyFamily.OrderList.EnsureValid(orderListType, nameof(orderListType));
        StrategyFamily.LevelIndex.EnsureValid(levelIndexType, nameof(levelIndexType));
        ArgumentNullException.ThrowIfNull(instruments);
        ArgumentNullException.ThrowIfNull(options);

        var engineType = typeof(MatchingEngine<,>).MakeGenericType(orderListType, levelIndexType);
        try
        {
            return (IMatchingEngine)Activator.CreateInstance(engineType, instruments, options)!;
        }
        catch (System.Reflection.TargetInvocationException e) when (e.InnerException is not null)
        {
            // Surface the constructor's own exception (e.g. a bad option), not the reflection wrapper.
            ExceptionDispatchInfo.Throw(e.InnerException);
            throw;
        }
    }
}
