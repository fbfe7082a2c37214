using Exchange.Hiccups;
using Xunit;

namespace Exchange.Host.Tests.Hiccups;

public class HiccupOptionsTests
{
    [Fact]
    public void EveryOption_IsRead()
    {
        HiccupOptions? options = HiccupOptions.Parse(
            ["--seconds", "2.5", "--cpus", "1,0", "--rate", "20000", "--latency-us", "40", "--threshold-us", "5"], out string? error);

        Assert.Null(error);
        Assert.NotNull(options);
        Assert.Equal(2.5, options.Seconds);
        Assert.Equal([1, 0], options.Cpus);
        Assert.Equal(20_000, options.Rate);
        Assert.Equal(40, options.LatencyMicroseconds);
        Assert.Equal(5, options.ThresholdMicroseconds);
    }

    [Theory]
    [InlineData("--seconds", "0")]
    [InlineData("--seconds", "x")]
    [InlineData("--cpus", "0,0")]
    [InlineData("--cpus", "-1")]
    [InlineData("--rate", "0")]
    [InlineData("--latency-us", "-3")]
    [InlineData("--bogus", "1")]
    public void BadArgument_IsAnErrorNamingIt(string name, string value)
    {
        Assert.Null(HiccupOptions.Parse([name, value], out string? error));
        Assert.Contains(name, error, StringComparison.Ordinal);
    }

    [Fact]
    public void NameWithoutValue_IsAnError()
    {
        Assert.Null(HiccupOptions.Parse(["--rate"], out string? error));
        Assert.Equal("--rate needs a value", error);
    }
}
