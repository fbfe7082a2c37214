using Exchange.Core.Commands;
using Exchange.Core.Domain;

namespace Exchange.Core.Tests.Lobster;

/// <summary>What one command of a LOBSTER replay stands for, so the replay can check the engine's answer.</summary>
public enum LobsterMapping
{
    /// <summary>Type 1: a new Day limit order (ClOrdID = the LOBSTER order id).</summary>
    Submit,

    /// <summary>
    /// Type 2: a replace to the reduced total quantity at the same price (keeps priority), under a new ClOrdID (the
    /// LOBSTER order id, a dot and the replace's number), as client ids are unique per day.
    /// </summary>
    PartialCancel,

    /// <summary>Type 3: a cancel.</summary>
    Delete,

    /// <summary>
    /// Type 4: the executed quantity leaves the resting order (a same-price quantity reduction, or a cancel when it is
    /// all gone). The aggressor is not in the file, so the execution is applied to the named order rather than
    /// re-matched; that keeps the book identical to the data.
    /// </summary>
    Execution,

    /// <summary>
    /// Not a message: a tracked order priced better than the real best level (orderbook file) must have left the book
    /// in an event the file does not show (a cancel while it was outside the recorded levels), so it is cancelled.
    /// </summary>
    Prune,
}

/// <summary>A command derived from a LOBSTER file, with the LOBSTER order it concerns.</summary>
public readonly record struct LobsterCommand(Command Command, LobsterMapping Mapping, long LobsterOrderId);

/// <summary>
/// Turns one symbol's LOBSTER messages into engine commands, tracking the visible orders it has seen. Messages about
/// orders that predate the file (or were never in its recorded levels), hidden executions (5) and halts (7) are
/// skipped and counted. The mapping depends only on the data, never on the engine's answers, so it can be computed up
/// front (benchmarks replay the same array). Expected engine behaviour on the result: no reject and no trade.
/// </summary>
public sealed class LobsterCommandMapper(int instrumentId)
{
    public const int Owner = 1;

    private readonly Dictionary<long, (Side Side, long Price, long OrderQuantity, int Replaces)> _live = [];
    private readonly SortedSet<(long Price, long Id)> _bids = [];
    private readonly SortedSet<(long Price, long Id)> _asks = [];
    private long _sequence;

    public int SkippedUnknownOrder { get; private set; }

    public int SkippedOther { get; private set; }

    /// <summary>An instrument whose band spans half the lowest to twice the highest price seen, tick one cent, lot 1.</summary>
    public static Instrument CreateInstrument(int id, string symbol, IEnumerable<LobsterMessage> messages)
    {
        const long tick = 100;
        long[] prices = messages.Where(m => m.Type is >= 1 and <= 5 && m.Price > 0).Select(m => m.Price).ToArray();
        long min = Math.Max(tick, prices.Min() / 2 / tick * tick);
        long max = ((prices.Max() * 2 / tick) + 1) * tick;
        return new Instrument(id, symbol, 4, tick, 1, min, max);
    }

    /// <summary>Maps a whole file: each message's command, then the prunes its orderbook row implies.</summary>
    public IEnumerable<LobsterCommand> Map(LobsterFile file)
    {
        for (int i = 0; i < file.Messages.Count; i++)
        {
            if (TryMap(file.Messages[i], out LobsterCommand command))
            {
                yield return command;
            }

            LobsterTop top = file.Tops[i];
            while (_bids.Count > 0 && _bids.Max.Price > top.BidPrice)
            {
                yield return Remove(_bids.Max.Id, LobsterMapping.Prune, file.Messages[i].TimeNanoseconds);
            }

            while (_asks.Count > 0 && _asks.Min.Price < top.AskPrice)
            {
                yield return Remove(_asks.Min.Id, LobsterMapping.Prune, file.Messages[i].TimeNanoseconds);
            }
        }
    }

    private bool TryMap(in LobsterMessage m, out LobsterCommand result)
    {
        result = default;
        if (m.Type == 1)
        {
            Side side = m.Direction == 1 ? Side.Buy : Side.Sell;
            _live[m.OrderId] = (side, m.Price, m.Size, 0);
            (side == Side.Buy ? _bids : _asks).Add((m.Price, m.OrderId));
            result = Make(NewCommand(CommandType.NewOrder, side, m.Price, m.Size, Id(m.OrderId, 0), default), LobsterMapping.Submit, m.OrderId, m.TimeNanoseconds);
            return true;
        }

        if (m.Type is < 2 or > 4)
        {
            SkippedOther++;
            return false;
        }

        if (!_live.TryGetValue(m.OrderId, out var order))
        {
            SkippedUnknownOrder++;
            return false;
        }

        LobsterMapping mapping = m.Type switch { 2 => LobsterMapping.PartialCancel, 3 => LobsterMapping.Delete, _ => LobsterMapping.Execution };
        long remaining = order.OrderQuantity - m.Size;
        if (m.Type == 3 || remaining <= 0)
        {
            result = Remove(m.OrderId, mapping, m.TimeNanoseconds);
            return true;
        }

        _live[m.OrderId] = order with { OrderQuantity = remaining, Replaces = order.Replaces + 1 };
        result = Make(
            NewCommand(CommandType.Replace, order.Side, order.Price, remaining, Id(m.OrderId, order.Replaces + 1), Id(m.OrderId, order.Replaces)),
            mapping, m.OrderId, m.TimeNanoseconds);
        return true;
    }

    private LobsterCommand Remove(long orderId, LobsterMapping mapping, long time)
    {
        var order = _live[orderId];
        _live.Remove(orderId);
        (order.Side == Side.Buy ? _bids : _asks).Remove((order.Price, orderId));
        return Make(NewCommand(CommandType.Cancel, order.Side, 0, 0, CancelId(orderId), Id(orderId, order.Replaces)), mapping, orderId, time);
    }

    private LobsterCommand Make(Command command, LobsterMapping mapping, long orderId, long time)
    {
        command.Sequence = ++_sequence;
        command.Timestamp = time;
        return new LobsterCommand(command, mapping, orderId);
    }

    private Command NewCommand(CommandType type, Side side, long price, long quantity, ClOrdId id, ClOrdId orig) => new()
    {
        Type = type,
        InstrumentId = instrumentId,
        OwnerId = Owner,
        Side = side,
        OrderType = OrderType.Limit,
        TimeInForce = TimeInForce.Day,
        Price = price,
        Quantity = quantity,
        ClOrdId = id,
        OrigClOrdId = orig,
    };

    /// <summary>The LOBSTER order id a ClOrdID of this mapping stands for (the part before any dot).</summary>
    public static long OrderIdOf(ClOrdId id)
    {
        ReadOnlySpan<byte> bytes = id.AsSpan();
        int dot = bytes.IndexOf((byte)'.');
        return long.Parse(dot < 0 ? bytes : bytes[..dot], System.Globalization.CultureInfo.InvariantCulture);
    }

    /// <summary>The order's id after <paramref name="replaces"/> replaces: "123", then "123.1", "123.2"...</summary>
    private static ClOrdId Id(long lobsterOrderId, int replaces) => ClOrdId.From(replaces == 0
        ? lobsterOrderId.ToString(System.Globalization.CultureInfo.InvariantCulture)
        : string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{lobsterOrderId}.{replaces}"));

    /// <summary>A cancel's own id: "123.x" (an order is removed once, so this is unique).</summary>
    private static ClOrdId CancelId(long lobsterOrderId) =>
        ClOrdId.From(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{lobsterOrderId}.x"));
}
