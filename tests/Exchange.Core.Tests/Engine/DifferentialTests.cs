using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Exchange.Core.Strategies;
using Exchange.Core.Tests.Reference;
using Xunit;

namespace Exchange.Core.Tests.Engine;

/// <summary>
/// Long seeded random command streams through every strategy combination and through <see cref="ReferenceBook"/>:
/// every event, sampled depth, and the final resting orders must be identical. Each run also publishes the touched
/// book's depth to a market-data store after every command, as the matcher does, and the depth read back from the
/// store must equal the reference's: the full 3 × 3 × 5 matrix, with the seeds spread over the stores.
/// </summary>
public class DifferentialTests
{
    private const int CommandsPerSeed = 20_000;

    /// <summary>
    /// Small enough that the longer days between the stream's new trading days (one command in 400) run out of ids, so
    /// the full-day rules are compared too.
    /// </summary>
    private const int ClOrdIdsPerDay = 1_000;

    private static readonly int[] Seeds = [1, 2, 3, 42, 7];

    public static IEnumerable<object[]> CombinationsAndSeeds =>
        from combination in StrategyMatrix.Names
        from store in StrategyMatrix.MarketDataStoreNames.Select((name, i) => (name, seed: Seeds[i % Seeds.Length]))
        select new object[] { combination, store.name, store.seed };

    [Theory]
    [MemberData(nameof(CombinationsAndSeeds))]
    public void Engine_matches_reference_book_on_random_stream(string combination, string marketDataStore, int seed)
    {
        int instrumentCount = TestInstruments.Create().Count;
        IMarketDataStore store = StrategyMatrix.CreateMarketDataStore(marketDataStore, instrumentCount);
        var published = default(BookDepth);
        var read = default(BookDepth);
        ReferenceRun expected = ReferenceRuns.GetOrAdd(seed, s => new Lazy<ReferenceRun>(() => ReferenceRun.Record(s))).Value;
        var options = new EngineOptions { InitialOrderCapacity = 4, InitialLevelCapacity = 2, MaxOrders = 1 << 20, MaxClOrdIdsPerDay = ClOrdIdsPerDay };
        IMatchingEngine engine = StrategyMatrix.Create(combination, TestInstruments.Create(), options); // small pools: growth is exercised too
        var text = new EventText();
        var stream = new RandomCommandStream(seed);

        for (int i = 0; i < CommandsPerSeed; i++)
        {
            Command command = stream.Next();
            string[] actual = Describe(engine.Process(in command), text);
            Assert.True(expected.Events[i].SequenceEqual(actual),
                $"command {i} ({command.Type} {command.ClOrdId}/{command.OrigClOrdId}): expected\n{string.Join('\n', expected.Events[i])}\nactual\n{string.Join('\n', actual)}");
            int touched = Math.Abs(command.InstrumentId) % instrumentCount;
            engine.CopyDepth(touched, ref published);
            store.Publish(in published);
            if (expected.Depths.TryGetValue(i, out string? depth))
            {
                Assert.Equal(depth, DescribeDepth(engine, command.InstrumentId));
                Assert.True(store.TryRead(touched, ref read));
                Assert.Equal(depth, DescribeDepth(in read));
            }
        }

        Assert.Equal(expected.FinalState, DescribeState(engine, text));
    }

    [Fact]
    public void Random_stream_exercises_every_outcome()
    {
        // Agreement proves little unless the stream really hits every rule; checked on the reference's output.
        ReferenceRun run = ReferenceRuns.GetOrAdd(1, s => new Lazy<ReferenceRun>(() => ReferenceRun.Record(s))).Value;
        var counts = run.Events.SelectMany(lines => lines).GroupBy(line => line.Split(' ')[1]).ToDictionary(g => g.Key, g => g.Count());
        foreach (string type in new[] { "Accepted", "Rejected", "Trade", "Cancelled", "Replaced", "CancelRejected", "OrderStatus" })
        {
            Assert.True(counts.GetValueOrDefault(type) > 100, $"only {counts.GetValueOrDefault(type)} {type} events");
        }

        foreach (string reason in new[]
        {
            "can=MarketRemainder", "can=ImmediateOrCancelRemainder", "can=ReplacedToFilled", "Cancelled src=NewTradingDay rej=None can=Expired", "Cancelled src=NewOrder rej=None can=FillOrKillUnfillable", "rej=ReplaceSideMismatch", "CancelRejected src=Cancel rej=CancelSideMismatch",
            "Rejected src=NewOrder rej=DuplicateClOrdId", "CancelRejected src=Cancel rej=DuplicateClOrdId", "CancelRejected src=Replace rej=DuplicateClOrdId",
            "Rejected src=NewOrder rej=ClOrdIdCapacityExceeded", "CancelRejected src=Replace rej=ClOrdIdCapacityExceeded",
            "rej=ReplaceOrderTypeMismatch", "rej=ReplaceTimeInForceMismatch",
            "CancelRejected src=Cancel rej=TooLateToCancel", "CancelRejected src=Replace rej=TooLateToCancel", "CancelRejected src=Cancel rej=UnknownOrder",
            "OrderStatus src=StatusRequest rej=None", "OrderStatus src=StatusRequest rej=UnknownOrder", "OrderStatus src=NewOrder rej=None",
            "MassCancelReport src=MassCancel rej=None", "Cancelled src=MassCancel rej=None can=MassCancel",
            "Cancelled src=CancelOnDisconnect rej=None can=SessionDisconnected",
            "Cancelled src=NewOrder rej=None can=SelfTradePrevention", "Cancelled src=Replace rej=None can=SelfTradePrevention",
            "Rejected src=NewOrder rej=InvalidSelfTradePrevention", "CancelRejected src=Replace rej=InvalidSelfTradePrevention",
            "CancelRejected src=Cancel rej=UnsupportedOrderInstruction", "CancelRejected src=Replace rej=PriceMissing",
        })
        {
            Assert.True(run.Events.SelectMany(lines => lines).Any(line => line.Contains(reason, StringComparison.Ordinal)), $"no event with {reason}");
        }

        // Refused requests name the live order (its state), an ended one (its id and end) or none.
        string[] refused = [.. run.Events.SelectMany(lines => lines).Where(line => line.Contains("CancelRejected", StringComparison.Ordinal) &&
            (line.Contains("rej=UnsupportedOrderInstruction", StringComparison.Ordinal) || line.Contains("rej=PriceMissing", StringComparison.Ordinal)))];
        Assert.Contains(refused, line => line.Contains(" ord=0 ", StringComparison.Ordinal));
        Assert.Contains(refused, line => !line.Contains(" ord=0 ", StringComparison.Ordinal) && line.Contains(" leaves=0 ", StringComparison.Ordinal));
        Assert.Contains(refused, line => !line.Contains(" ord=0 ", StringComparison.Ordinal) && !line.Contains(" leaves=0 ", StringComparison.Ordinal));

        // Duplicates of live orders (their rejects carry the live order), of ended ones (their final state, no leaves) and
        // of ids that name no order (a cancel's, or one replaced away from an order since ended).
        Assert.Contains(run.Events.SelectMany(lines => lines), line => line.Contains(" Rejected src=NewOrder rej=DuplicateClOrdId", StringComparison.Ordinal) && !line.Contains(" ord=0 ", StringComparison.Ordinal) && !line.Contains(" leaves=0 ", StringComparison.Ordinal));
        Assert.Contains(run.Events.SelectMany(lines => lines), line => line.Contains(" Rejected src=NewOrder rej=DuplicateClOrdId", StringComparison.Ordinal) && !line.Contains(" ord=0 ", StringComparison.Ordinal) && line.Contains(" leaves=0 ", StringComparison.Ordinal));
        Assert.Contains(run.Events.SelectMany(lines => lines), line => line.Contains(" Rejected src=NewOrder rej=DuplicateClOrdId", StringComparison.Ordinal) && line.Contains(" ord=0 ", StringComparison.Ordinal));

        Assert.True(run.FinalState.Count(c => c == '\n') > 20, "book too thin at the end");
    }

    private static readonly System.Collections.Concurrent.ConcurrentDictionary<int, Lazy<ReferenceRun>> ReferenceRuns = new();

    /// <summary>The reference book's output for one seed, recorded once and shared by every combination's test.</summary>
    private sealed record ReferenceRun(string[][] Events, Dictionary<int, string> Depths, string FinalState)
    {
        public static ReferenceRun Record(int seed)
        {
            var reference = new ReferenceBook(TestInstruments.Create(), new EngineOptions { MaxOrders = 1 << 20, MaxClOrdIdsPerDay = ClOrdIdsPerDay });
            var text = new EventText();
            var stream = new RandomCommandStream(seed);
            var events = new string[CommandsPerSeed][];
            var depths = new Dictionary<int, string>();
            for (int i = 0; i < CommandsPerSeed; i++)
            {
                Command command = stream.Next();
                events[i] = Describe(reference.Process(in command), text);
                if (i % 97 == 0)
                {
                    depths[i] = DescribeDepth(reference, command.InstrumentId);
                }
            }

            return new ReferenceRun(events, depths, DescribeState(reference, text));
        }
    }

    private static string[] Describe(ReadOnlySpan<EngineEvent> events, EventText text)
    {
        var lines = new string[events.Length];
        for (int i = 0; i < events.Length; i++)
        {
            lines[i] = text.Describe(in events[i]);
        }

        return lines;
    }

    /// <summary>Top-of-book depth as text; an unknown instrument id maps into range so every sample compares something.</summary>
    private static string DescribeDepth(IMatchingEngine engine, int instrument)
    {
        var depth = default(BookDepth);
        engine.CopyDepth(Math.Abs(instrument) % TestInstruments.Create().Count, ref depth);
        return DescribeDepth(in depth);
    }

    private static string DescribeDepth(in BookDepth depth)
    {
        var text = new System.Text.StringBuilder();
        for (int i = 0; i < depth.BidCount; i++)
        {
            text.Append($"B{depth.Bids[i].Price}x{depth.Bids[i].Quantity}/{depth.Bids[i].OrderCount} ");
        }

        for (int i = 0; i < depth.AskCount; i++)
        {
            text.Append($"A{depth.Asks[i].Price}x{depth.Asks[i].Quantity}/{depth.Asks[i].OrderCount} ");
        }

        return text.ToString();
    }

    /// <summary>Every resting order of every instrument in priority order, plus the count, as text.</summary>
    private static string DescribeState(IMatchingEngine engine, EventText text)
    {
        var lines = new List<string> { $"resting={engine.RestingOrderCount}" };
        for (int instrument = 0; instrument < TestInstruments.Create().Count; instrument++)
        {
            foreach (Side side in new[] { Side.Buy, Side.Sell })
            {
                lines.AddRange(engine.GetRestingOrders(instrument, side).Select(o => $"{instrument} {text.Describe(o)}"));
                lines.Add(DescribeDepth(engine, instrument));
            }
        }

        return string.Join('\n', lines);
    }
}
