using System.Diagnostics.Metrics;

namespace Exchange.Host.Metrics;

/// <summary>
/// The venue's System.Diagnostics.Metrics instruments, meter "Exchange.Venue" (see them with
/// <c>dotnet-counters monitor -n Exchange.Host --counters Exchange.Venue</c>).
/// </summary>
/// <remarks>
/// Hot-path counts come from <see cref="MatcherCounters"/> through observable counters (polled by the collector, no
/// work per order). Ring occupancy is a gauge over callbacks the host registers per ring. Stage latency is a
/// <see cref="Histogram{T}"/> in microseconds tagged with the stage; record it from the sender or a sampling point, not
/// necessarily for every order. Thread-safe.
/// </remarks>
internal sealed class VenueMetrics : IDisposable
{
    public const string MeterName = "Exchange.Venue";

    private readonly Meter _meter;
    private readonly Histogram<double> _stageLatency;
    private readonly KeyValuePair<string, object?>[][] _stageTags;
    private readonly Lock _ringsLock = new();
    private readonly List<(string Ring, Func<long> Occupancy)> _rings = [];

    /// <param name="counters">The matcher's totals.</param>
    /// <param name="meterFactory">Where the meter comes from (the host's, so tests and collectors can scope it).</param>
    /// <param name="gatewayRejects">The gateway's own rejects (<see cref="Exchange.Fix.Gateway.IFixGateway.RejectsSent"/>); none when null.</param>
    /// <param name="messageRejects">Messages refused as messages (<see cref="Exchange.Fix.Gateway.IFixGateway.MessageRejectsSent"/>); none when null.</param>
    public VenueMetrics(
        MatcherCounters counters, IMeterFactory? meterFactory = null, Func<long>? gatewayRejects = null, Func<Exchange.Fix.Gateway.MessageRejects>? messageRejects = null)
    {
        ArgumentNullException.ThrowIfNull(counters);
        Counters = counters;
        _meter = meterFactory?.Create(MeterName) ?? new Meter(MeterName);

        _meter.CreateObservableCounter("exchange.orders", () => counters.Orders, "{order}", "Orders received by the matcher (not those the gateway rejected before it)");
        _meter.CreateObservableCounter("exchange.trades", () => counters.Trades, "{trade}", "Trades executed");
        // Two sources, so the total is what clients received: the gateway answers some rejects itself, before the matcher.
        KeyValuePair<string, object?> matcher = new("source", "matcher");
        KeyValuePair<string, object?> gateway = new("source", "gateway");
        _meter.CreateObservableCounter(
            "exchange.rejects",
            () => new[] { new Measurement<long>(counters.Rejects, matcher), new Measurement<long>(gatewayRejects?.Invoke() ?? 0, gateway) },
            "{order}",
            "Orders and requests rejected; tag source: matcher (the engine's rules, with the cancels and replaces the gateway refused) or gateway (rejected before the matcher: a field it cannot map, over the session's message limit, the venue stopping)");
        // Messages, not orders: a client sending malformed or unsupported messages shows here, whatever they carried.
        KeyValuePair<string, object?> reject = new("type", "reject");
        KeyValuePair<string, object?> businessReject = new("type", "business_reject");
        _meter.CreateObservableCounter(
            "exchange.messages.rejected",
            () =>
            {
                Exchange.Fix.Gateway.MessageRejects sent = messageRejects?.Invoke() ?? default;
                return new[] { new Measurement<long>(sent.Rejects, reject), new Measurement<long>(sent.BusinessRejects, businessReject) };
            },
            "{message}",
            "Messages refused as messages; tag type: reject (session-level Reject 35=3: malformed, against the dictionary, or breaking a session rule) or business_reject (BusinessMessageReject 35=j: an unsupported message type, or a message refused over its session's limit)");
        _meter.CreateObservableGauge("exchange.ring.occupancy", ObserveRings, "{slot}", "Slots published but not yet consumed by every handler");
        _meter.CreateObservableCounter("exchange.gc.collections", ObserveCollections, "{collection}", "GC collections by generation");
        _meter.CreateObservableCounter("exchange.gc.pause_time", () => GC.GetTotalPauseDuration().TotalMilliseconds, "ms", "Total time the GC paused the process");
        _stageLatency = _meter.CreateHistogram<double>("exchange.stage.latency", "us", "Latency per pipeline stage");

        PipelineStage[] stages = Enum.GetValues<PipelineStage>();
        _stageTags = new KeyValuePair<string, object?>[stages.Length][];
        foreach (PipelineStage stage in stages)
        {
            _stageTags[(int)stage] = [new KeyValuePair<string, object?>("stage", stage.ToString())];
        }
    }

    public MatcherCounters Counters { get; }

    /// <summary>The meter itself (listeners filter on it).</summary>
    public Meter Meter => _meter;

    /// <summary>Adds a ring to the occupancy gauge (tag "ring"); the callback runs on the collector's thread.</summary>
    public void RegisterRing(string ring, Func<long> occupancy)
    {
        lock (_ringsLock)
        {
            _rings.Add((ring, occupancy));
        }
    }

    /// <summary>Exports the Inline polling thread's slow passes (<see cref="PollerPasses"/>).</summary>
    public void ObservePoller(PollerPasses passes)
    {
        ArgumentNullException.ThrowIfNull(passes);
        KeyValuePair<string, object?>[] tags = Enumerable.Range(0, PollerPasses.Bounds.Length)
            .Select(i => new KeyValuePair<string, object?>("over", PollerPasses.BoundName(i)))
            .ToArray();
        _meter.CreateObservableCounter(
            "exchange.poller.slow_passes",
            () => Enumerable.Range(0, tags.Length).Select(i => new Measurement<long>(passes.PassesOver(i), tags[i])),
            "{pass}",
            "Polling passes longer than the bound in tag \"over\" (thread descheduled or a large batch)");
        _meter.CreateObservableCounter("exchange.poller.slow_pass_time", () => passes.SlowPassMilliseconds, "ms", "Total time of the polling passes over 100 us");
    }

    /// <summary>
    /// Exports the trading day's client order ids against their fixed capacity (<c>Venue:Pipeline:MaxClOrdIdsPerDay</c>):
    /// at the capacity, new orders and replaces are rejected until the next trading day.
    /// </summary>
    public void ObserveClOrdIds(int capacity)
    {
        MatcherCounters counters = Counters;
        _meter.CreateObservableGauge("exchange.clordids.used", () => counters.ClOrdIdsUsedToday, "{id}", "Client order ids used in the current trading day");
        _meter.CreateObservableGauge("exchange.clordids.limit", () => capacity, "{id}", "Client order ids one trading day can use");
    }

    /// <summary>Records one latency sample; tag arrays are prebuilt so the call itself does not allocate.</summary>
    public void RecordStageLatency(PipelineStage stage, double microseconds) =>
        _stageLatency.Record(microseconds, _stageTags[(int)stage]);

    public void Dispose() => _meter.Dispose();

    private List<Measurement<long>> ObserveRings()
    {
        lock (_ringsLock)
        {
            var measurements = new List<Measurement<long>>(_rings.Count);
            foreach ((string ring, Func<long> occupancy) in _rings)
            {
                measurements.Add(new Measurement<long>(occupancy(), new KeyValuePair<string, object?>("ring", ring)));
            }

            return measurements;
        }
    }

    private static Measurement<long>[] ObserveCollections()
    {
        var measurements = new Measurement<long>[GC.MaxGeneration + 1];
        for (int generation = 0; generation <= GC.MaxGeneration; generation++)
        {
            measurements[generation] = new Measurement<long>(
                GC.CollectionCount(generation), new KeyValuePair<string, object?>("generation", generation));
        }

        return measurements;
    }
}
