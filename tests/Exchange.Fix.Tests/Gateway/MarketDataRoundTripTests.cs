using Exchange.Core.Domain;
using Exchange.Core.MarketData;
using Exchange.Fix.Gateway;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// A client that builds its book from the snapshot (35=W) and applies every incremental refresh (35=X) by
/// MDEntryPositionNo must hold exactly the venue's visible levels after each one, on random book sequences and for
/// several MarketDepths and entry types. Levels come from a small price grid, so they enter, leave, shift and change.
/// </summary>
public sealed class MarketDataRoundTripTests
{
    private const long Tick = 100; // AAPL in the harness: 4 decimals, so 0.01 is 100

    [Theory]
    [InlineData(1, 0, MarketDataSubscription.Bids | MarketDataSubscription.Offers)]
    [InlineData(2, 1, MarketDataSubscription.Bids | MarketDataSubscription.Offers)]
    [InlineData(3, 3, MarketDataSubscription.Bids | MarketDataSubscription.Offers)]
    [InlineData(4, 10, MarketDataSubscription.Bids | MarketDataSubscription.Offers)]
    [InlineData(5, 5, MarketDataSubscription.Offers)]
    [InlineData(6, 0, MarketDataSubscription.Bids)]
    public void Applying_each_refresh_to_the_snapshot_gives_the_venues_visible_book(int seed, int marketDepth, byte entryTypes)
    {
        var random = new Random(seed);
        using var h = new GatewayHarness();
        h.LogOn();
        var subscription = new MarketDataSubscription
        {
            MdReqId = ClOrdId.From("MD-1"),
            SubscriptionRequestType = (byte)'1',
            MarketDepth = marketDepth,
            InstrumentId = 0,
            EntryTypes = entryTypes,
            Login = 1,
        };

        BookDepth book = RandomBook(random);
        h.Gateway.SendMarketDataSnapshot(0, subscription, book);
        var client = new ClientBook(Assert.Single(MarketDataEncodingTests.TakeValidated(h)));
        client.AssertShows(book, marketDepth, entryTypes);

        for (int step = 0; step < 300; step++)
        {
            BookDepth next = random.Next(4) == 0 ? RandomBook(random) : Nudge(book, random);
            h.Gateway.SendMarketDataIncremental(0, subscription, book, next);
            foreach (List<(int Tag, string Value)> refresh in MarketDataEncodingTests.TakeValidated(h))
            {
                client.Apply(refresh);
            }

            client.AssertShows(next, marketDepth, entryTypes);
            book = next;
        }
    }

    /// <summary>Up to 10 levels a side from a grid of 15 prices, bids below 143.50, offers above.</summary>
    private static BookDepth RandomBook(Random random)
    {
        var book = new BookDepth { InstrumentId = 0 };
        book.BidCount = Fill(book.Bids, random, 1_435_000 - Tick, -Tick);
        book.AskCount = Fill(book.Asks, random, 1_435_000 + Tick, Tick);
        return book;
    }

    private static int Fill(Span<DepthLevel> levels, Random random, long best, long step)
    {
        int count = 0;
        for (int i = 0; i < 15 && count < BookDepth.MaxLevels; i++)
        {
            if (random.Next(3) != 0)
            {
                levels[count++] = new DepthLevel { Price = best + (i * step), Quantity = random.Next(1, 500), OrderCount = random.Next(1, 9) };
            }
        }

        return count;
    }

    /// <summary>A small change, as one order makes: one level's size changes, or a level appears or goes.</summary>
    private static BookDepth Nudge(BookDepth book, Random random)
    {
        BookDepth next = book;
        bool bids = random.Next(2) == 0;
        Span<DepthLevel> levels = next.Asks;
        if (bids)
        {
            levels = next.Bids;
        }

        ref int count = ref bids ? ref next.BidCount : ref next.AskCount;
        int action = random.Next(3);
        if (action == 0 && count > 0)
        {
            levels[random.Next(count)].Quantity = random.Next(1, 500);
        }
        else if (action == 1 && count > 0)
        {
            int at = random.Next(count);
            levels[(at + 1)..count].CopyTo(levels[at..]);
            count--;
        }
        else
        {
            long price = (bids ? 1_435_000 - Tick : 1_435_000 + Tick) + ((bids ? -Tick : Tick) * random.Next(15));
            int at = 0;
            while (at < count && (bids ? levels[at].Price > price : levels[at].Price < price))
            {
                at++;
            }

            if (at < count && levels[at].Price == price)
            {
                levels[at].OrderCount++;
            }
            else if (at < BookDepth.MaxLevels)
            {
                // A new level; the worst one drops out of a full side.
                int kept = Math.Min(count, BookDepth.MaxLevels - 1);
                levels[at..kept].CopyTo(levels[(at + 1)..]);
                levels[at] = new DepthLevel { Price = price, Quantity = random.Next(1, 500), OrderCount = 1 };
                count = kept + 1;
            }
        }

        next.Version = book.Version + 1;
        return next;
    }

    /// <summary>The client's view: each side's levels in position order (position 1 first).</summary>
    private sealed class ClientBook
    {
        private readonly List<(long Price, long Quantity, int Orders)> _bids = [];
        private readonly List<(long Price, long Quantity, int Orders)> _offers = [];

        public ClientBook(List<(int Tag, string Value)> snapshot)
        {
            foreach (Dictionary<int, string> entry in Entries(snapshot))
            {
                Side(entry).Add(Level(entry));
            }
        }

        public void Apply(List<(int Tag, string Value)> refresh)
        {
            foreach (Dictionary<int, string> entry in Entries(refresh))
            {
                List<(long Price, long Quantity, int Orders)> side = Side(entry);
                int at = int.Parse(entry[290], System.Globalization.CultureInfo.InvariantCulture) - 1;
                switch (entry[279])
                {
                    case "0":
                        side.Insert(at, Level(entry));
                        break;
                    case "1":
                        Assert.Equal(Price(entry), side[at].Price);
                        side[at] = Level(entry);
                        break;
                    default:
                        Assert.Equal(Price(entry), side[at].Price);
                        side.RemoveAt(at);
                        break;
                }
            }
        }

        public void AssertShows(BookDepth book, int marketDepth, byte entryTypes)
        {
            Assert.Equal(Visible(book.Bids, book.BidCount, marketDepth, (entryTypes & MarketDataSubscription.Bids) != 0), _bids);
            Assert.Equal(Visible(book.Asks, book.AskCount, marketDepth, (entryTypes & MarketDataSubscription.Offers) != 0), _offers);
        }

        private static List<(long, long, int)> Visible(ReadOnlySpan<DepthLevel> levels, int count, int marketDepth, bool asked)
        {
            int shown = !asked ? 0 : marketDepth > 0 ? Math.Min(count, marketDepth) : count;
            var visible = new List<(long, long, int)>();
            foreach (DepthLevel level in levels[..shown])
            {
                visible.Add((level.Price, level.Quantity, level.OrderCount));
            }

            return visible;
        }

        private List<(long Price, long Quantity, int Orders)> Side(Dictionary<int, string> entry) => entry[269] == "0" ? _bids : _offers;

        private static (long, long, int) Level(Dictionary<int, string> entry) =>
            (Price(entry), long.Parse(entry[271], System.Globalization.CultureInfo.InvariantCulture), int.Parse(entry[346], System.Globalization.CultureInfo.InvariantCulture));

        /// <summary>MDEntryPx at the harness instrument's 4 decimals, parsed exactly.</summary>
        private static long Price(Dictionary<int, string> entry) =>
            (long)(decimal.Parse(entry[270], System.Globalization.CultureInfo.InvariantCulture) * 10_000m);

        /// <summary>The repeating group's entries: each starts at 279 (X) or 269 (W).</summary>
        private static List<Dictionary<int, string>> Entries(List<(int Tag, string Value)> fields)
        {
            int first = fields.FindIndex(f => f.Tag == 268) + 1;
            int startTag = fields.Exists(f => f.Tag == 279) ? 279 : 269;
            var entries = new List<Dictionary<int, string>>();
            foreach ((int tag, string value) in fields.Skip(first).TakeWhile(f => f.Tag != 10))
            {
                if (tag == startTag)
                {
                    entries.Add([]);
                }

                entries[^1][tag] = value;
            }

            return entries;
        }
    }
}
