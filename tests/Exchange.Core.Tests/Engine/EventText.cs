using Exchange.Core.Engine;
using Exchange.Core.Events;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// Renders events and resting orders as text for comparison, with engine order ids replaced by their order of first
/// appearance: two implementations agree when they make the same decisions, whatever their id schemes.
/// </summary>
public sealed class EventText
{
    private readonly Dictionary<long, int> _orderIds = [];

    public string Describe(in EngineEvent e) =>
        $"#{e.EventId} {e.Type} src={e.SourceCommand} rej={e.RejectReason} can={e.CancelReason} inst={e.InstrumentId} " +
        $"own={e.OwnerId} ord={Map(e.OrderId)} {e.Side} {e.OrderType} {e.TimeInForce} px={e.Price} qty={e.OrderQuantity} " +
        $"leaves={e.LeavesQuantity} cum={e.CumulativeQuantity} notional={e.CumulativeNotional} last={e.LastQuantity}@{e.LastPrice} " +
        $"trade={e.TradeId} ts={e.Timestamp} seq={e.CommandSequence} id={e.ClOrdId} orig={e.OrigClOrdId}";

    public string Describe(RestingOrder o) =>
        $"ord={Map(o.OrderId)} own={o.OwnerId} id={o.ClOrdId} {o.Side} px={o.Price} qty={o.OrderQuantity} leaves={o.LeavesQuantity} cum={o.CumulativeQuantity}";

    private int Map(long orderId)
    {
        if (orderId == 0)
        {
            return 0;
        }

        if (!_orderIds.TryGetValue(orderId, out int mapped))
        {
            mapped = _orderIds.Count + 1;
            _orderIds.Add(orderId, mapped);
        }

        return mapped;
    }
}
