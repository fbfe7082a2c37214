using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Core.MarketData;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// A stand-in engine for pipeline tests: a new order is accepted and rests (a duplicate ClOrdID per owner is
/// rejected), a cancel removes a resting order or is rejected, a new trading day has no events. It records every
/// command it processed, in order.
/// Single-threaded like the real engine; read <see cref="Processed"/> only after the matcher stopped.
/// </summary>
internal sealed class FakeEngine : IMatchingEngine
{
    private readonly HashSet<(int Owner, ClOrdId Id)> _resting = [];
    private readonly EngineEvent[] _buffer = new EngineEvent[1];
    private long _nextEventId = 1;
    private long _nextOrderId = 1;

    public List<Command> Processed { get; } = [];

    /// <summary>Called after each command is recorded in <see cref="Processed"/>, before it is answered.</summary>
    public Action<FakeEngine>? AfterEach { get; init; }

    public int RestingOrderCount => _resting.Count;

    /// <summary>Nothing preallocated to touch.</summary>
    public long PreFault() => 0;

    public int ClOrdIdsUsedToday => _resting.Count;

    public ReadOnlySpan<EngineEvent> Process(in Command command)
    {
        Processed.Add(command);
        AfterEach?.Invoke(this);
        if (command.Type == CommandType.NewTradingDay)
        {
            return [];
        }

        ref EngineEvent e = ref _buffer[0];
        e = new EngineEvent
        {
            SourceCommand = command.Type,
            InstrumentId = command.InstrumentId,
            OwnerId = command.OwnerId,
            Side = command.Side,
            Price = command.Price,
            OrderQuantity = command.Quantity,
            ClOrdId = command.ClOrdId,
            OrigClOrdId = command.OrigClOrdId,
            Timestamp = command.Timestamp,
            CommandSequence = command.Sequence,
            EventId = _nextEventId++,
        };
        switch (command.Type)
        {
            case CommandType.NewOrder when _resting.Add((command.OwnerId, command.ClOrdId)):
                e.Type = EventType.Accepted;
                e.OrderId = _nextOrderId++;
                e.LeavesQuantity = command.Quantity;
                break;
            case CommandType.NewOrder:
                e.Type = EventType.Rejected;
                e.RejectReason = RejectReason.DuplicateClOrdId;
                break;
            case CommandType.Cancel when _resting.Remove((command.OwnerId, command.OrigClOrdId)):
                e.Type = EventType.Cancelled;
                e.CancelReason = CancelReason.Requested;
                break;
            default:
                e.Type = EventType.CancelRejected;
                e.RejectReason = RejectReason.UnknownOrder;
                break;
        }

        return _buffer;
    }

    public void CopyDepth(int instrumentId, ref BookDepth depth)
    {
        depth.InstrumentId = instrumentId;
        depth.Version = _nextEventId;
        depth.BidCount = 0;
        depth.AskCount = 0;
    }

    public IReadOnlyList<RestingOrder> GetRestingOrders(int instrumentId, Side side) => [];
}
