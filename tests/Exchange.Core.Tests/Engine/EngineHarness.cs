using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;

namespace Exchange.Core.Tests.Engine;

/// <summary>Drives one engine with readable calls and returns each command's events as an array (tests only).</summary>
public sealed class EngineHarness(IMatchingEngine engine)
{
    private long _sequence;

    public IMatchingEngine Engine { get; } = engine;

    public static EngineHarness For(string combination, EngineOptions? options = null, IReadOnlyList<Instrument>? instruments = null) =>
        new(StrategyMatrix.Create(combination, instruments ?? TestInstruments.Create(), options));

    public EngineEvent[] Send(Command command)
    {
        command.Sequence = ++_sequence;
        command.Timestamp = _sequence * 1000;
        return Engine.Process(in command).ToArray();
    }

    public EngineEvent[] Buy(string clOrdId, int ticks, long quantity, TimeInForce tif = TimeInForce.Day, int owner = 1, int instrument = 1) =>
        Send(Commands.Limit(instrument, owner, clOrdId, Side.Buy, TestInstruments.P(ticks), quantity, tif));

    public EngineEvent[] Sell(string clOrdId, int ticks, long quantity, TimeInForce tif = TimeInForce.Day, int owner = 1, int instrument = 1) =>
        Send(Commands.Limit(instrument, owner, clOrdId, Side.Sell, TestInstruments.P(ticks), quantity, tif));

    public EngineEvent[] Market(string clOrdId, Side side, long quantity, TimeInForce tif = TimeInForce.Day, int owner = 1, int instrument = 1) =>
        Send(Commands.Market(instrument, owner, clOrdId, side, quantity, tif));

    public EngineEvent[] Cancel(string clOrdId, string origClOrdId, Side side, int owner = 1, int instrument = 1) =>
        Send(Commands.Cancel(instrument, owner, clOrdId, origClOrdId, side));

    public EngineEvent[] Replace(string clOrdId, string origClOrdId, Side side, int ticks, long quantity, int owner = 1, int instrument = 1) =>
        Send(Commands.Replace(instrument, owner, clOrdId, origClOrdId, side, TestInstruments.P(ticks), quantity));

    public IReadOnlyList<RestingOrder> Bids(int instrument = 1) => Engine.GetRestingOrders(instrument, Side.Buy);

    public IReadOnlyList<RestingOrder> Asks(int instrument = 1) => Engine.GetRestingOrders(instrument, Side.Sell);

    /// <summary>Every resting order of every instrument, as text, for "state unchanged" assertions.</summary>
    public string BookState()
    {
        var lines = new List<string>();
        for (int i = 0; i < 3; i++)
        {
            lines.AddRange(Engine.GetRestingOrders(i, Side.Buy).Select(o => $"{i} {o}"));
            lines.AddRange(Engine.GetRestingOrders(i, Side.Sell).Select(o => $"{i} {o}"));
        }

        return string.Join('\n', lines);
    }
}

/// <summary>Command builders shared by the scenario, differential and allocation tests.</summary>
public static class Commands
{
    public static Command Limit(int instrument, int owner, string clOrdId, Side side, long price, long quantity, TimeInForce tif = TimeInForce.Day) =>
        Limit(instrument, owner, ClOrdId.From(clOrdId), side, price, quantity, tif);

    public static Command Limit(int instrument, int owner, ClOrdId clOrdId, Side side, long price, long quantity, TimeInForce tif = TimeInForce.Day) => new()
    {
        Type = CommandType.NewOrder,
        InstrumentId = instrument,
        OwnerId = owner,
        ClOrdId = clOrdId,
        Side = side,
        OrderType = OrderType.Limit,
        TimeInForce = tif,
        Price = price,
        Quantity = quantity,
    };

    public static Command Market(int instrument, int owner, string clOrdId, Side side, long quantity, TimeInForce tif = TimeInForce.Day)
    {
        Command command = Limit(instrument, owner, clOrdId, side, 0, quantity, tif);
        command.OrderType = OrderType.Market;
        return command;
    }

    public static Command Cancel(int instrument, int owner, string clOrdId, string origClOrdId, Side side) =>
        Cancel(instrument, owner, ClOrdId.From(clOrdId), ClOrdId.From(origClOrdId), side);

    public static Command Cancel(int instrument, int owner, ClOrdId clOrdId, ClOrdId origClOrdId, Side side) => new()
    {
        Type = CommandType.Cancel,
        InstrumentId = instrument,
        OwnerId = owner,
        ClOrdId = clOrdId,
        OrigClOrdId = origClOrdId,
        Side = side,
    };

    public static Command Replace(int instrument, int owner, string clOrdId, string origClOrdId, Side side, long price, long quantity) =>
        Replace(instrument, owner, ClOrdId.From(clOrdId), ClOrdId.From(origClOrdId), side, price, quantity);

    public static Command Replace(int instrument, int owner, ClOrdId clOrdId, ClOrdId origClOrdId, Side side, long price, long quantity)
    {
        Command command = Cancel(instrument, owner, clOrdId, origClOrdId, side);
        command.Type = CommandType.Replace;
        command.OrderType = OrderType.Limit;
        command.Price = price;
        command.Quantity = quantity;
        return command;
    }
}
