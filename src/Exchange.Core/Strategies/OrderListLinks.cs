namespace Exchange.Core.Strategies;

/// <summary>
/// Per-order bookkeeping owned by the chosen <see cref="IOrderList"/> strategy; the engine only allocates, grows and
/// passes the array. An intrusive list keeps prev/next here, a deque its position, a node-based list its pooled node.
/// </summary>
public struct OrderListLinks
{
    public int Previous;
    public int Next;
    public object? Node;
}
