using System.Diagnostics;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Fix.Gateway;
using Exchange.Host.Metrics;
using Exchange.Host.Pipeline;

namespace Exchange.Host.Venue;

/// <summary>
/// The matcher on the inbound ring, in parallel with the journaller: applies each command to the engine, copies its
/// events into the outbound ring, publishes the touched book (every book after a new trading day, which expires Day
/// orders in any of them, or a mass cancel of every instrument) to the market-data store and keeps the counters.
/// </summary>
/// <remarks>
/// Threading: the matcher thread is the only thread that touches the engine, the outbound ring's producer side, the
/// store's writer side and <see cref="MatcherCounters"/>. Allocation: none per command (events are copied into
/// preallocated slots; the depth buffer is reused). The matcher may run ahead of the journal; the sender holds the
/// reports back until the journal has the command.
/// </remarks>
internal struct MatcherHandler : IEventHandler<InboundSlot>
{
    private readonly IMatchingEngine _engine;
    private readonly SequenceRing<OutboundSlot> _outbound;
    private readonly BookPublisher _books;
    private readonly MatcherCounters _counters;
    private readonly Action? _drainOutbound;

    /// <param name="drainOutbound">
    /// Inline pipeline only: runs the sender on this thread when the outbound ring is full. Null when the sender has its
    /// own thread (then a full ring is waited out).
    /// </param>
    public MatcherHandler(IMatchingEngine engine, SequenceRing<OutboundSlot> outbound, BookPublisher books, MatcherCounters counters, Action? drainOutbound = null)
    {
        _engine = engine;
        _outbound = outbound;
        _books = books;
        _counters = counters;
        _drainOutbound = drainOutbound;
    }

    public readonly void OnEvent(ref InboundSlot evt, long sequence, bool endOfBatch)
    {
        ReadOnlySpan<EngineEvent> events = _engine.Process(in evt.Command);
        long matched = Stopwatch.GetTimestamp();
        bool bookChanged = false;
        int tradeSides = 0;
        foreach (ref readonly EngineEvent engineEvent in events)
        {
            if (!_outbound.TryClaimWaiting(out long outSequence, _drainOutbound))
            {
                // The sender faulted and the venue is stopping; this command's reports can never leave.
                throw new InvalidOperationException("The outbound ring was aborted: its sender faulted.");
            }

            ref OutboundSlot slot = ref _outbound[outSequence];
            slot.Event = engineEvent;
            slot.Times = new StageTimes { Received = evt.ReceivedTimestamp, Matched = matched };
            _outbound.Publish(outSequence);

            switch (engineEvent.Type)
            {
                case EventType.Rejected:
                case EventType.CancelRejected:
                    _counters.Rejected();
                    break;
                case EventType.Trade:
                    tradeSides++;
                    bookChanged = true;
                    break;
                case EventType.Accepted:
                case EventType.Cancelled:
                case EventType.Replaced:
                    bookChanged = true;
                    break;
                case EventType.OrderStatus:
                    // A report of an order's state for its owner: neither a reject nor a change to publish.
                    break;
            }
        }

        if (evt.Command.Type == Core.Commands.CommandType.NewOrder)
        {
            _counters.OrderReceived();
        }

        if (tradeSides != 0)
        {
            // Each trade yields one event per side.
            _counters.TradesExecuted(tradeSides / 2);
        }

        if (evt.Command.Type == Core.Commands.CommandType.NewTradingDay)
        {
            _counters.TradingDayStarted(_engine.ClOrdIdsUsedToday);
            if (bookChanged)
            {
                _books.PublishAll(evt.Command.Sequence);
            }
        }
        else if (bookChanged && (evt.Command.InstrumentId < 0 || evt.Command.Type == Core.Commands.CommandType.CancelOnDisconnect))
        {
            // A mass cancel of every instrument, or a cancel on disconnect: any book may have changed.
            _books.PublishAll(evt.Command.Sequence);
        }
        else if (bookChanged)
        {
            _books.Publish(evt.Command.InstrumentId, evt.Command.Sequence);
        }

        if (endOfBatch)
        {
            // Once a batch, not per command: the gauge and the capacity warning read it every 200 ms or so.
            _counters.ClOrdIdsUsed(_engine.ClOrdIdsUsedToday);
        }
    }
}
