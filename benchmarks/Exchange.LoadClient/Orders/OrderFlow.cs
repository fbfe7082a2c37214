using Exchange.Core.Domain;

namespace Exchange.LoadClient.Orders;

/// <summary>One order's side, time in force and limit price (price units).</summary>
internal readonly record struct OrderSpec(Side Side, TimeInForce TimeInForce, long Price);

/// <summary>
/// The deterministic order mix. Flow order n, in cycles of four:
/// <list type="bullet">
/// <item>n % 4 == 0: passive Day buy at mid - (1 + (n / 4) % levels) ticks (rests, or fills a crossing sell left over);</item>
/// <item>n % 4 == 1: passive Day sell at mid + the same offset;</item>
/// <item>n % 4 == 2: aggressive IOC buy at mid + levels ticks (crosses every resting ask level: fills against the best ask);</item>
/// <item>n % 4 == 3: aggressive IOC sell at mid - levels ticks.</item>
/// </list>
/// Half the orders rest and half take liquidity with the same quantity, so each IOC consumes one resting order and the
/// book stays near its pre-populated size (an IOC finding the other side empty is cancelled, never rests): about half
/// the orders are acknowledged as New (150=0) and half fill (150=F), and the book is bounded without cancels.
/// Pre-population order i rests on side i % 2 at 1 + (i / 2) % levels ticks from the mid.
/// </summary>
internal sealed class OrderFlow
{
    private readonly long _mid;
    private readonly long _tick;
    private readonly int _levels;

    public OrderFlow(long midPrice, long tick, int levels)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(tick);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(levels);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(midPrice, levels * tick);
        _mid = midPrice;
        _tick = tick;
        _levels = levels;
    }

    public OrderSpec Flow(long n)
    {
        bool buy = (n & 1) == 0;
        if ((n & 2) == 0)
        {
            return Passive(buy, n >> 2);
        }

        long price = buy ? _mid + (_levels * _tick) : _mid - (_levels * _tick);
        return new OrderSpec(buy ? Side.Buy : Side.Sell, TimeInForce.ImmediateOrCancel, price);
    }

    public OrderSpec Prepopulate(long i) => Passive((i & 1) == 0, i >> 1);

    public OrderSpec For(OrderKind kind, long number) => kind == OrderKind.Prepopulate ? Prepopulate(number) : Flow(number);

    private OrderSpec Passive(bool buy, long step)
    {
        long offset = (1 + (step % _levels)) * _tick;
        return new OrderSpec(buy ? Side.Buy : Side.Sell, TimeInForce.Day, buy ? _mid - offset : _mid + offset);
    }
}
