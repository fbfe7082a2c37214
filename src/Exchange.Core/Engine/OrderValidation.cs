using System.Runtime.CompilerServices;
using Exchange.Core.Domain;
using Exchange.Core.Events;

namespace Exchange.Core.Engine;

/// <summary>Field checks shared by new orders and replaces. Pure functions: validation never touches state.</summary>
/// <remarks>Each is inlined where it is used: the venue's JIT compiles without a profile and left them as calls.</remarks>
internal static class OrderValidation
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsValidSide(Side side) => side is Side.Buy or Side.Sell;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsValidOrderType(OrderType type) => type is OrderType.Limit or OrderType.Market;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsValidSelfTradePrevention(SelfTradePrevention prevention) => prevention <= SelfTradePrevention.CancelBoth;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsValidTimeInForce(TimeInForce tif) =>
        tif is TimeInForce.Day or TimeInForce.GoodTillCancel or TimeInForce.ImmediateOrCancel or TimeInForce.FillOrKill;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static RejectReason CheckQuantity(in TradingLimits limits, long quantity)
    {
        if (quantity <= 0)
        {
            return RejectReason.QuantityNotPositive;
        }

        if (quantity > limits.MaxQuantity)
        {
            return RejectReason.QuantityTooLarge;
        }

        return quantity % limits.LotSize != 0 ? RejectReason.QuantityOffLot : RejectReason.None;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static RejectReason CheckLimitPrice(in TradingLimits limits, long price)
    {
        if (price <= 0)
        {
            return RejectReason.PriceNotPositive;
        }

        if (price % limits.TickSize != 0)
        {
            return RejectReason.PriceOffTick;
        }

        return price < limits.MinPrice || price > limits.MaxPrice ? RejectReason.PriceOutOfBand : RejectReason.None;
    }

    /// <summary>Whether a taker on <paramref name="takerIsBuy"/> with <paramref name="limit"/> trades at a resting price.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool Crosses(bool takerIsBuy, long limit, long restingPrice) =>
        takerIsBuy ? restingPrice <= limit : restingPrice >= limit;

    /// <summary>The taker's effective limit: its price, or unbounded for a market order.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long EffectiveLimit(bool isBuy, OrderType type, long price) =>
        type == OrderType.Market ? (isBuy ? long.MaxValue : long.MinValue) : price;
}
