using Exchange.Host.Pipeline;
using Xunit;

namespace Exchange.Host.Tests.Pipeline;

public class WaitStrategiesTests
{
    [Theory]
    [InlineData("BusySpin", "BusySpin")]
    [InlineData("yielding", "Yielding")]
    [InlineData(" Sleeping ", "Sleeping")]
    [InlineData("BLOCKING", "Blocking")]
    public void Parse_AcceptsConfiguredNamesIgnoringCase(string value, string expected)
    {
        Assert.Equal(Enum.Parse<WaitStrategyKind>(expected), WaitStrategies.Parse(value, "Pipeline:Matcher:WaitStrategy"));
    }

    [Theory]
    [InlineData("Spinning")]
    [InlineData("1")]
    [InlineData("-1")]
    [InlineData("BusySpin, Yielding")]
    [InlineData("")]
    [InlineData(null)]
    public void Parse_RejectsUnknownValuesNamingKeyAndAllowedValues(string? value)
    {
        var error = Assert.Throws<ArgumentException>(() => WaitStrategies.Parse(value, "Pipeline:Matcher:WaitStrategy"));

        Assert.Contains("Pipeline:Matcher:WaitStrategy", error.Message, StringComparison.Ordinal);
        Assert.Contains("BusySpin, Yielding, Sleeping, Blocking", error.Message, StringComparison.Ordinal);
    }
}
