using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Xunit;

namespace Exchange.Core.Tests.Plugins;

/// <summary>The factory closes the engine over the chosen strategy types and refuses types that cannot serve.</summary>
public sealed class MatchingEngineFactoryTests
{
    private static readonly Instrument[] Instruments = [new(0, "TEST", 2, 1, 1, 1, 100_000)];

    [Fact]
    public void The_engine_is_closed_over_the_given_strategies()
    {
        var engine = MatchingEngineFactory.Create(typeof(ProbeOrderList), typeof(ProbeLevelIndex), Instruments, new EngineOptions());

        Assert.Equal(typeof(MatchingEngine<,>), engine.GetType().GetGenericTypeDefinition());
        Assert.Equal([typeof(ProbeOrderList), typeof(ProbeLevelIndex)], engine.GetType().GetGenericArguments());
    }

    [Fact]
    public void A_class_order_list_is_refused_before_closing_the_generic()
    {
        var error = Assert.Throws<ArgumentException>(() =>
            MatchingEngineFactory.Create(typeof(ClassOrderList), typeof(ProbeLevelIndex), Instruments, new EngineOptions()));
        Assert.Equal("orderListType", error.ParamName);
        Assert.Contains("must be a struct", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Swapped_strategy_types_are_refused()
    {
        var error = Assert.Throws<ArgumentException>(() =>
            MatchingEngineFactory.Create(typeof(ProbeLevelIndex), typeof(ProbeOrderList), Instruments, new EngineOptions()));
        Assert.Equal("orderListType", error.ParamName);
        Assert.Contains("does not implement Exchange.Core.Strategies.IOrderList", error.Message, StringComparison.Ordinal);
    }
}
