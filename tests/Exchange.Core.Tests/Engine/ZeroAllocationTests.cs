using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Strategies.LevelIndexes;
using Exchange.Strategies.OrderLists;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// Proof that steady-state matching allocates nothing: a million mixed commands (adds, cancels, partial cancels, price
/// replaces, crossing IOC/FOK orders that trade, resting orders sent again with and without PossibleResend, new
/// trading days that expire Day orders) after warm-up, with 0 bytes allocated on the matching thread.
/// </summary>
[Collection(ZeroAllocationCollection.Name)]
public class ZeroAllocationTests
{
    private const int Instruments = 8;
    private const int BaseOrdersPerSide = 50;
    private const int BlockLength = 10_000;
    private const int MeasuredBlocks = 100;

    /// <summary>Where <see cref="Run"/> counts expiries, after the event types' own counts.</summary>
    private const int ExpiredCount = 8;

    [Fact]
    public void Million_mixed_commands_allocate_nothing_after_warm_up()
    {
        IReadOnlyList<Instrument> instruments = TestInstruments.Create(Instruments);
        MatchingEngine<IntrusiveListOrderList, SortedArrayLevelIndex> engine =
            StrategyMatrix.Create<IntrusiveListOrderList, SortedArrayLevelIndex>(instruments);
        foreach (Command command in BaseBook())
        {
            engine.Process(in command);
        }

        int baseCount = engine.RestingOrderCount;
        Command[] block = SteadyStateBlock(seed: 7);

        var warmUp = new int[ExpiredCount + 1];
        for (int i = 0; i < 40; i++)
        {
            Run(engine, block, warmUp);
        }

        Assert.Equal(baseCount, engine.RestingOrderCount); // the block really returns the book to its base state

        // Tiered compilation is off for test assemblies (tests/Directory.Build.props), so the code measured here is
        // final after warm-up and one strict measurement suffices.
        var counts = new int[ExpiredCount + 1];
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < MeasuredBlocks; i++)
        {
            Run(engine, block, counts);
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        Assert.Equal(baseCount, engine.RestingOrderCount);
        Assert.True(counts[(int)EventType.Trade] > MeasuredBlocks * 1000, $"only {counts[(int)EventType.Trade]} trade events");
        Assert.True(counts[(int)EventType.Replaced] > MeasuredBlocks * 300, $"only {counts[(int)EventType.Replaced]} replaces");
        Assert.True(counts[(int)EventType.Cancelled] > MeasuredBlocks * 1000, $"only {counts[(int)EventType.Cancelled]} cancels");
        Assert.True(counts[(int)EventType.OrderStatus] > MeasuredBlocks * 20, $"only {counts[(int)EventType.OrderStatus]} order statuses");
        Assert.True(counts[ExpiredCount] > MeasuredBlocks * 10, $"only {counts[ExpiredCount]} Day orders expired");
    }

    private static void Run(MatchingEngine<IntrusiveListOrderList, SortedArrayLevelIndex> engine, Command[] block, int[] counts)
    {
        for (int i = 0; i < block.Length; i++)
        {
            foreach (ref readonly EngineEvent e in engine.Process(in block[i]))
            {
                counts[(int)e.Type]++;
                counts[ExpiredCount] += e.CancelReason == CancelReason.Expired ? 1 : 0;
            }
        }
    }

    /// <summary>
    /// Deep orders (30..79 ticks from the mid) that the block never reaches, so the book never drains. Good till
    /// cancel, so the block's new trading day leaves them resting.
    /// </summary>
    private static IEnumerable<Command> BaseBook()
    {
        for (int instrument = 0; instrument < Instruments; instrument++)
        {
            long lot = instrument == 0 ? 10 : 1;
            for (int i = 0; i < BaseOrdersPerSide; i++)
            {
                yield return Commands.Limit(instrument, 0, ClOrdId.From($"base{instrument}-b{i}"), Side.Buy, TestInstruments.P(-30 - i), lot * 5, TimeInForce.GoodTillCancel);
                yield return Commands.Limit(instrument, 0, ClOrdId.From($"base{instrument}-s{i}"), Side.Sell, TestInstruments.P(30 + i), lot * 5, TimeInForce.GoodTillCancel);
            }
        }
    }

    /// <summary>
    /// A block of commands that ends with its good-till-cancel orders cancelled and a new trading day, which expires its
    /// Day orders still resting: every order it created is gone, so it can be replayed any number of times with the same
    /// client ids (each used once per block). Resting orders sit 1..10 ticks from the mid; takers are IOC/FOK limits
    /// within 10 ticks, so base orders are never touched. Cancels of already-filled orders are rejected (also measured).
    /// </summary>
    private static Command[] SteadyStateBlock(int seed)
    {
        var random = new Random(seed);
        var commands = new List<Command>(BlockLength);
        var live = new List<(int Instrument, ClOrdId Id, Side Side, long Price, long Quantity, TimeInForce Tif)>();
        int next = 0;
        while (commands.Count < BlockLength - 1 - live.Count)
        {
            int instrument = random.Next(Instruments);
            long lot = instrument == 0 ? 10 : 1;
            int roll = random.Next(100);
            if (roll < 46 || live.Count < 20)
            {
                Side side = random.Next(2) == 0 ? Side.Buy : Side.Sell;
                int ticks = random.Next(1, 11);
                long price = TestInstruments.P(side == Side.Buy ? -ticks : ticks);
                long quantity = lot * random.Next(1, 10);
                var id = ClOrdId.From($"r{next++}");
                TimeInForce tif = random.Next(2) == 0 ? TimeInForce.Day : TimeInForce.GoodTillCancel;
                Command order = Commands.Limit(instrument, 1, id, side, price, quantity, tif);
                commands.Add(order);
                live.Add((instrument, id, side, price, quantity, tif));
                if (next % 25 == 0)
                {
                    // Sent again while it rests, as a possible resend (answered with its status) or as a plain
                    // duplicate (rejected with its state): neither changes anything.
                    order.PossibleResend = next % 50 == 0;
                    commands.Add(order);
                }
            }
            else if (roll < 80)
            {
                int index = random.Next(live.Count);
                var order = live[index];
                live.RemoveAt(index);
                commands.Add(Commands.Cancel(order.Instrument, 1, ClOrdId.From($"c{next++}"), order.Id, order.Side));
            }
            else if (roll < 90)
            {
                int index = random.Next(live.Count);
                var order = live[index];
                // The order's own lot: a replace rejected as off lot would leave the order under its old id.
                long orderLot = order.Instrument == 0 ? 10 : 1;
                long reduced = Math.Max(orderLot, order.Quantity - orderLot);
                long price = random.Next(3) == 0 ? TestInstruments.P((order.Side == Side.Buy ? -1 : 1) * random.Next(1, 11)) : order.Price;
                var id = ClOrdId.From($"q{next++}");
                commands.Add(Commands.Replace(order.Instrument, 1, id, order.Id, order.Side, price, reduced));
                live[index] = order with { Id = id, Price = price, Quantity = reduced };
            }
            else
            {
                Side side = random.Next(2) == 0 ? Side.Buy : Side.Sell;
                long price = TestInstruments.P(side == Side.Buy ? random.Next(1, 11) : -random.Next(1, 11));
                TimeInForce tif = random.Next(4) == 0 ? TimeInForce.FillOrKill : TimeInForce.ImmediateOrCancel;
                commands.Add(Commands.Limit(instrument, 2, ClOrdId.From($"t{next++}"), side, price, lot * random.Next(1, 30), tif));
            }
        }

        foreach (var order in live.Where(o => o.Tif == TimeInForce.GoodTillCancel))
        {
            commands.Add(Commands.Cancel(order.Instrument, 1, ClOrdId.From($"c{next++}"), order.Id, order.Side));
        }

        commands.Add(new Command { Type = CommandType.NewTradingDay });
        return [.. commands];
    }
}
