using Exchange.Core.Commands;
using Exchange.Core.Domain;

namespace Exchange.Benchmarks.Engine;

/// <summary>
/// A generated order flow shaped like a Nasdaq day: about 46% adds, 44% deletes, 8% partial cancels, 1% replaces and
/// 1% crossing IOC orders that trade, spread over many books. Activity clusters near the top of each book (1..10
/// ticks from the mid); a deep base book (30+ ticks away, never reached) gives each book realistic size.
/// </summary>
/// <remarks>
/// The <see cref="Block"/> ends with every order it created gone (filled or cancelled) and then starts a new trading day,
/// so it can be replayed any number of times on one engine with the same client ids (unique within the block, as they
/// must be within a day) and the book returns to <see cref="BaseBook"/> each time. Deterministic for a given seed.
/// Client ids come as a FIX client numbers its requests: one counter per session for new orders, cancels and replaces
/// alike ("o1", "o2", ...; the crossing IOCs are a second session's, "t..."). The engine's day of used ids relies on
/// that numbering for cache locality (see <c>UsedClOrdIds</c>), so ids drawn from separate prefixes per request type
/// would measure a client that numbers its requests unusually.
/// </remarks>
internal sealed class NasdaqShapedWorkload
{
    public const long Tick = 100;
    public const long Mid = 1_500_000;

    public NasdaqShapedWorkload(int books, int restingOrders, int blockLength, int seed = 12345)
    {
        Instruments = Enumerable.Range(0, books)
            .Select(i => new Instrument(i, $"S{i}", 4, Tick, 1, 1_000_000, 2_000_000))
            .ToArray();
        BaseBook = CreateBaseBook(books, restingOrders);
        Block = CreateBlock(books, blockLength, new Random(seed));
    }

    public IReadOnlyList<Instrument> Instruments { get; }

    /// <summary>Deep resting orders to load once before measuring.</summary>
    public Command[] BaseBook { get; }

    /// <summary>The measured, replayable flow.</summary>
    public Command[] Block { get; }

    private static Command[] CreateBaseBook(int books, int restingOrders)
    {
        var commands = new Command[restingOrders];
        for (int i = 0; i < restingOrders; i++)
        {
            int book = i % books;
            int depth = 30 + (i / books / 2 % 400);
            Side side = (i / books) % 2 == 0 ? Side.Buy : Side.Sell;
            long price = Mid + ((side == Side.Buy ? -depth : depth) * Tick);
            commands[i] = NewOrder(book, 0, ClOrdId.From($"base{i}"), side, price, 100, TimeInForce.GoodTillCancel);
        }

        return commands;
    }

    private static Command[] CreateBlock(int books, int length, Random random)
    {
        var commands = new List<Command>(length);
        var live = new List<(int Book, ClOrdId Id, Side Side, long Price, long Quantity)>();
        int next = 0;

        // Every request takes the session's next number, as a FIX client numbers its ClOrdIDs.
        ClOrdId NextId(string prefix) => ClOrdId.From($"{prefix}{next++}");

        while (commands.Count < length - 1 - live.Count)
        {
            int book = random.Next(books);
            int roll = random.Next(100);
            if (roll < 46 || live.Count < books)
            {
                Side side = random.Next(2) == 0 ? Side.Buy : Side.Sell;
                int ticks = 1 + (int)Math.Min(9, -Math.Log(1 - random.NextDouble()) * 2.5); // most adds near the top
                long price = Mid + ((side == Side.Buy ? -ticks : ticks) * Tick);
                var id = NextId("o");
                long quantity = 100 * random.Next(1, 10);
                commands.Add(NewOrder(book, 1, id, side, price, quantity, TimeInForce.Day));
                live.Add((book, id, side, price, quantity));
            }
            else if (roll < 90)
            {
                var order = TakeRandom(live, random);
                commands.Add(Cancel(order.Book, NextId("o"), order.Id, order.Side));
            }
            else if (roll < 98)
            {
                int index = random.Next(live.Count);
                var order = live[index];
                long reduced = Math.Max(100, order.Quantity - 100);
                var id = NextId("o");
                commands.Add(Replace(order.Book, id, order.Id, order.Side, order.Price, reduced));
                live[index] = order with { Id = id, Quantity = reduced };
            }
            else if (roll < 99)
            {
                int index = random.Next(live.Count);
                var order = live[index];
                long price = Mid + ((order.Side == Side.Buy ? -1 : 1) * random.Next(1, 11) * Tick);
                var id = NextId("o");
                commands.Add(Replace(order.Book, id, order.Id, order.Side, price, order.Quantity));
                live[index] = order with { Id = id, Price = price };
            }
            else
            {
                Side side = random.Next(2) == 0 ? Side.Buy : Side.Sell;
                long price = Mid + ((side == Side.Buy ? 3 : -3) * Tick);
                commands.Add(NewOrder(book, 2, NextId("t"), side, price, 100 * random.Next(1, 20), TimeInForce.ImmediateOrCancel));
            }
        }

        foreach (var order in live)
        {
            commands.Add(Cancel(order.Book, NextId("o"), order.Id, order.Side));
        }

        commands.Add(new Command { Type = CommandType.NewTradingDay });
        return [.. commands];
    }

    private static T TakeRandom<T>(List<T> items, Random random)
    {
        int index = random.Next(items.Count);
        T item = items[index];
        items[index] = items[^1];
        items.RemoveAt(items.Count - 1);
        return item;
    }

    private static Command NewOrder(int book, int owner, ClOrdId id, Side side, long price, long quantity, TimeInForce tif) => new()
    {
        Type = CommandType.NewOrder, InstrumentId = book, OwnerId = owner, ClOrdId = id, Side = side,
        OrderType = OrderType.Limit, TimeInForce = tif, Price = price, Quantity = quantity,
    };

    private static Command Cancel(int book, ClOrdId id, ClOrdId origId, Side side) => new()
    {
        Type = CommandType.Cancel, InstrumentId = book, OwnerId = 1, ClOrdId = id, OrigClOrdId = origId, Side = side,
    };

    private static Command Replace(int book, ClOrdId id, ClOrdId origId, Side side, long price, long quantity) => new()
    {
        Type = CommandType.Replace, InstrumentId = book, OwnerId = 1, ClOrdId = id, OrigClOrdId = origId, Side = side,
        OrderType = OrderType.Limit, Price = price, Quantity = quantity,
    };
}
