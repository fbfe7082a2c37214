using System.Diagnostics.Metrics;
using Exchange.Host.Metrics;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Host.Tests.Metrics;

[Collection(ZeroAllocationCollection.Name)]
public class VenueMetricsTests
{
    [Fact]
    public void ObservableInstruments_ReportCountersRingsAndGc()
    {
        var counters = new MatcherCounters();
        using var metrics = new VenueMetrics(counters, gatewayRejects: () => 4, messageRejects: () => new Exchange.Fix.Gateway.MessageRejects(6, 2));
        for (int i = 0; i < 5; i++)
        {
            counters.OrderReceived();
        }

        counters.TradesExecuted(3);
        counters.Rejected();
        metrics.RegisterRing("inbound", () => 42);
        metrics.RegisterRing("outbound", () => 7);
        var passes = new PollerPasses();
        passes.Observe(System.Diagnostics.Stopwatch.Frequency / 500);
        metrics.ObservePoller(passes);
        counters.ClOrdIdsUsed(1234);
        metrics.ObserveClOrdIds(4096);

        var longs = new List<(string Name, long Value, string? Tag)>();
        var doubles = new List<(string Name, double Value, string? Tag)>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (ReferenceEquals(instrument.Meter, metrics.Meter))
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => longs.Add((instrument.Name, value, FirstTag(tags))));
        listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => doubles.Add((instrument.Name, value, FirstTag(tags))));
        var ints = new List<(string Name, long Value, string? Tag)>();
        listener.SetMeasurementEventCallback<int>((instrument, value, tags, _) => ints.Add((instrument.Name, value, FirstTag(tags))));
        listener.Start();

        metrics.RecordStageLatency(PipelineStage.Matched, 12.5);
        listener.RecordObservableInstruments();

        Assert.Contains(("exchange.orders", 5L, (string?)null), longs);
        Assert.Contains(("exchange.trades", 3L, (string?)null), longs);
        Assert.Contains(("exchange.rejects", 1L, (string?)"matcher"), longs);
        Assert.Contains(("exchange.rejects", 4L, (string?)"gateway"), longs);
        Assert.Contains(("exchange.messages.rejected", 6L, (string?)"reject"), longs);
        Assert.Contains(("exchange.messages.rejected", 2L, (string?)"business_reject"), longs);
        Assert.Contains(("exchange.ring.occupancy", 42L, (string?)"inbound"), longs);
        Assert.Contains(("exchange.ring.occupancy", 7L, (string?)"outbound"), longs);
        Assert.Equal(GC.MaxGeneration + 1, longs.Count(m => m.Name == "exchange.gc.collections"));
        Assert.Contains(doubles, m => m.Name == "exchange.gc.pause_time" && m.Value >= 0);
        Assert.Contains(("exchange.stage.latency", 12.5, (string?)"Matched"), doubles);
        Assert.Contains(("exchange.poller.slow_passes", 1L, (string?)"100us"), longs);
        Assert.Contains(("exchange.poller.slow_passes", 1L, (string?)"1ms"), longs);
        Assert.Contains(("exchange.poller.slow_passes", 0L, (string?)"10ms"), longs);
        Assert.Contains(doubles, m => m.Name == "exchange.poller.slow_pass_time" && Math.Abs(m.Value - 2) < 0.01);
        Assert.Contains(("exchange.clordids.used", 1234L, (string?)null), longs.Select(m => (m.Name, m.Value, m.Tag)).Concat(ints));
        Assert.Contains(("exchange.clordids.limit", 4096L, (string?)null), longs.Select(m => (m.Name, m.Value, m.Tag)).Concat(ints));
    }

    [Fact]
    public void MatcherCounters_IncrementWithoutAllocating()
    {
        var counters = new MatcherCounters();
        counters.OrderReceived();
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 10_000; i++)
        {
            counters.OrderReceived();
            counters.TradesExecuted(2);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.Equal(10_001, counters.Orders);
        Assert.Equal(20_000, counters.Trades);
    }

    private static string? FirstTag(ReadOnlySpan<KeyValuePair<string, object?>> tags) =>
        tags.Length == 0 ? null : tags[0].Value?.ToString();
}
