using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Core.MarketData;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// <see cref="FakeEngine"/> with a defect: it throws on every new order whose ClOrdID is <c>poison</c>, the way an engine
/// bug that one command triggers would, live and on every replay of that command.
/// </summary>
internal sealed class ThrowingEngine(string poison) : IMatchingEngine
{
    private readonly ClOrdId _poison = ClOrdId.From(poison);

    public FakeEngine Inner { get; } = new();

    public int RestingOrderCount => Inner.RestingOrderCount;

    public int ClOrdIdsUsedToday => Inner.ClOrdIdsUsedToday;

    public ReadOnlySpan<EngineEvent> Process(in Command command)
    {
        if (command.Type == CommandType.NewOrder && command.ClOrdId.Equals(_poison))
        {
            throw new InvalidOperationException($"engine defect triggered by {poison}");
        }

        return Inner.Process(in command);
    }

    public long PreFault() => Inner.PreFault();

    public void CopyDepth(int instrumentId, ref BookDepth depth) => Inner.CopyDepth(instrumentId, ref depth);

    public IReadOnlyList<RestingOrder> GetRestingOrders(int instrumentId, Side side) => Inner.GetRestingOrders(instrumentId, side);
}
