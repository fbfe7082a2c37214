using Exchange.Host.Metrics;
using Exchange.Host.Tests.Venue;
using Microsoft.Extensions.Logging;
using Xunit;

namespace Exchange.Host.Tests.Metrics;

public sealed class ClOrdIdCapacityWatchTests
{
    [Fact]
    public void Warns_once_at_80_percent_of_the_days_ids_and_again_only_after_a_new_day()
    {
        var counters = new MatcherCounters();
        using var logs = new CapturingLoggerProvider();
        using ILoggerFactory loggers = LoggerFactory.Create(builder => builder.AddProvider(logs));
        var watch = new ClOrdIdCapacityWatch(counters, capacity: 1000, loggers.CreateLogger("test"));

        counters.ClOrdIdsUsed(799);
        Assert.False(watch.Check());
        counters.ClOrdIdsUsed(800);
        Assert.True(watch.Check());
        counters.ClOrdIdsUsed(1000);
        Assert.False(watch.Check());

        // A new trading day whose ids fill up before the next check still gets its warning.
        counters.TradingDayStarted(0);
        counters.ClOrdIdsUsed(950);
        Assert.True(watch.Check());
        Assert.False(watch.Check());

        Assert.Equal(2, logs.Lines.Count(line => line.StartsWith("Warning: ", StringComparison.Ordinal) && line.Contains("of the day's 1000 client order ids are used", StringComparison.Ordinal)));
        Assert.True(logs.Contains("800 of the day's 1000 client order ids are used (at least 80%)"), string.Join(Environment.NewLine, logs.Lines));
    }
}
