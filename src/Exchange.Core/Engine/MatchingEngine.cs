using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

// PLACEHOLDER — replaced by the engine branch at merge. It exists only so MatchingEngineFactory compiles on the
// marketdata branch; it has the real engine's constructor and constraints and no behaviour. Drop this file in the merge.
public sealed class MatchingEngine<TOrderList, TLevelIndex> : IMatchingEngine
    where TOrderList : struct, IOrderList
    where TLevelIndex : struct, IPriceLevelIndex
{
    public MatchingEngine(IReadOnlyList<Instrument> instruments, EngineOptions options)
    {
        ArgumentNullException.ThrowIfNull(instruments);
        ArgumentNullException.ThrowIfNull(options);
    }

    public int RestingOrderCount => throw new NotImplementedException("PLACEHOLDER engine");

    public ReadOnlySpan<EngineEvent> Process(in Command command) => throw new NotImplementedException("PLACEHOLDER engine");

    public void CopyDepth(int instrumentId, ref BookDepth depth) => throw new NotImplementedException("PLACEHOLDER engine");

    public IReadOnlyList<RestingOrder> GetRestingOrders(int instrumentId, Side side) =>
        throw new NotImplementedException("PLACEHOLDER engine");
}
