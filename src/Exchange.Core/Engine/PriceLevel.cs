using Exchange.Core.Strategies;

namespace Exchange.Core.Engine;

/// <summary>One price on one side of one book: its aggregate and its queue of orders in time priority.</summary>
internal struct PriceLevel<TOrderList>
    where TOrderList : struct, IOrderList
{
    public long Price;

    /// <summary>Sum of the leaves quantity of the orders queued here.</summary>
    public long TotalQuantity;

    /// <summary>The order-list strategy, inline in the slot; calls on it are direct (constrained generic).</summary>
    public TOrderList Orders;
}
