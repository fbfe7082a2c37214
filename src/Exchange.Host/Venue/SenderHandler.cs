using System.Diagnostics;
using Exchange.Fix.Gateway;
using Exchange.Host.Metrics;
using Exchange.Host.Pipeline;

namespace Exchange.Host.Venue;

/// <summary>
/// The sender on the outbound ring: waits until the journal holds the event's command, then hands the event to the
/// gateway, which encodes it into the owner's connection (or stores it for resend when the owner is away).
/// </summary>
/// <remarks>
/// Threading: the sender thread only. An event whose command never became durable (the journal failed) is dropped,
/// never acknowledged: the client sees no report for an order the venue could not record.
/// </remarks>
internal struct SenderHandler : IEventHandler<OutboundSlot>
{
    private readonly IFixGateway _gateway;
    private readonly DurabilityGate _gate;
    private readonly WaitStrategyKind _wait;
    private readonly VenueMetrics? _metrics;
    private readonly bool _prepareAfterBatch;
    private long _lastMeasuredCommand;

    /// <param name="prepareAfterBatch">
    /// Whether to prepare a file session store's next page (<see cref="IFixGateway.PrepareWhileIdle"/>) after each
    /// batch: on its own thread the sender writes most of the stores' records (the reports), and a report that meets a
    /// fresh page otherwise waits for its fault (~15 µs). Not inline, where the polling thread prepares when idle.
    /// </param>
    public SenderHandler(IFixGateway gateway, DurabilityGate gate, WaitStrategyKind wait, VenueMetrics? metrics, bool prepareAfterBatch = false)
    {
        _gateway = gateway;
        _gate = gate;
        _wait = wait;
        _metrics = metrics;
        _prepareAfterBatch = prepareAfterBatch;
        _lastMeasuredCommand = -1;
        Dropped = 0;
    }

    /// <summary>Events not sent because their command never became durable.</summary>
    public long Dropped { get; private set; }

    public void OnEvent(ref OutboundSlot evt, long sequence, bool endOfBatch)
    {
        if (_gate.WaitFor(evt.Event.CommandSequence, _wait))
        {
            Send(ref evt);
        }
        else
        {
            Dropped++;
        }

        if (endOfBatch && _prepareAfterBatch)
        {
            // One store at most, like the inline idle pass: a report published meanwhile waits for this fault.
            _gateway.PrepareWhileIdle();
        }
    }

    private void Send(ref OutboundSlot evt)
    {
        long now = Stopwatch.GetTimestamp();
        evt.Times.Journaled = _gate.CommitTimeOf(evt.Event.CommandSequence, fallback: now);
        evt.Times.Sent = now;
        _gateway.SendEvent(in evt.Event, in evt.Times);

        // One latency sample per command (its first event), not per event.
        if (_metrics is not null && evt.Event.CommandSequence != _lastMeasuredCommand)
        {
            _lastMeasuredCommand = evt.Event.CommandSequence;
            Record(_metrics, in evt.Times);
        }
    }

    private static void Record(VenueMetrics metrics, in StageTimes times)
    {
        if (times.Received == 0)
        {
            return;
        }

        metrics.RecordStageLatency(PipelineStage.Journaled, Microseconds(times.Journaled - times.Received));
        metrics.RecordStageLatency(PipelineStage.Matched, Microseconds(times.Matched - times.Received));
        metrics.RecordStageLatency(PipelineStage.Sent, Microseconds(times.Sent - times.Received));
    }

    private static double Microseconds(long ticks) => ticks * 1_000_000.0 / Stopwatch.Frequency;
}
