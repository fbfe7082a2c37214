using System.Runtime.InteropServices;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// Two gateways fed the same random sessions, one as the venue runs and one forced onto the usual path before every
/// frame (full parse, dictionary walk, mapper): orders with good and bad values, heartbeats, cancels, market-data
/// requests, possible duplicates, sequence gaps and their fills, numbers too low, a throttle, both self-trade
/// settings. After every frame both must have published the same commands, sent the same messages and expect the
/// same MsgSeqNum.
/// </summary>
public class GatewayFusedDifferentialTests
{
    private static readonly string[] Sides = ["1", "2", "5"];
    private static readonly string[] OrdTypes = ["2", "1", "3"];
    private static readonly string[] TimesInForce = ["0", "1", "3", "6"];
    private static readonly string[] Quantities = ["100", "100.0", "7", "100.5", "-5", "0", "99999999999999999999"];
    private static readonly string[] Prices = ["143.42", "143.4200", "143.42001", "-1.5", "0", "9223372036854775807", "12."];
    private static readonly string[] Symbols = ["AAPL", "MSFT", "AAPM"];

    [Fact]
    public void RandomSessions_PublishAndSendTheSameAsTheUsualPath()
    {
        long fused = 0;
        for (int run = 0; run < 600; run++)
        {
            var random = new Random(run);
            int limit = random.Next(3) == 0 ? 3 : 0;
            var selfTrade = (SelfTradePrevention)random.Next(0, 2);
            SessionConfig Config() => new("VENUE", "CLIENT1") { MaxApplicationMessagesPerSecond = limit, SelfTradePrevention = selfTrade };
            using var venue = new GatewayHarness(sessions: [Config()]);
            using var usual = new GatewayHarness(sessions: [Config()]);
            venue.LogOn();
            usual.LogOn();
            string layoutExtra = random.Next(2) == 0 ? "" : "21=1|";
            int next = 2;
            for (int step = 0; step < 40; step++)
            {
                // Every other session sends orders only, so runs of one layout are long and the fused read is taken often.
                (string type, string fields, string header) = RandomMessage(random, step, layoutExtra, ordersOnly: run % 2 == 1);
                int seq = NextSeqNum(random, ref next);
                usual.Handler.ForgetLayout();
                venue.Feed(venue.Message(type, fields, seq, header));
                usual.Feed(usual.Message(type, fields, seq, header));
                if (random.Next(4) == 0)
                {
                    TimeSpan by = TimeSpan.FromMilliseconds(random.Next(0, 600));
                    venue.Clock.Advance(by);
                    usual.Clock.Advance(by);
                }

                string where = $"run {run}, step {step}";
                Assert.True(Sent(venue) == Sent(usual), where);
                Assert.True(Commands(venue) == Commands(usual), where);
                Assert.True(venue.Gateway.GetSession(0).NextTargetSeqNum == usual.Gateway.GetSession(0).NextTargetSeqNum, where);
            }

            fused += venue.Handler.FusedOrders;
            Assert.Equal(0, usual.Handler.FusedOrders);
        }

        Assert.True(fused > 800, $"only {fused} orders took the fused read");
    }

    private static (string Type, string Fields, string Header) RandomMessage(Random random, int step, string layoutExtra, bool ordersOnly)
    {
        int kind = random.Next(ordersOnly ? 14 : 20);
        if (kind < 14)
        {
            string price = random.Next(4) == 0 ? Prices[random.Next(Prices.Length)] : "143.42";
            string quantity = random.Next(4) == 0 ? Quantities[random.Next(Quantities.Length)] : "100";
            string side = random.Next(5) == 0 ? Sides[random.Next(Sides.Length)] : "1";
            string ordType = random.Next(5) == 0 ? OrdTypes[random.Next(OrdTypes.Length)] : "2";
            string timeInForce = random.Next(5) == 0 ? TimesInForce[random.Next(TimesInForce.Length)] : "0";
            string symbol = random.Next(5) == 0 ? Symbols[random.Next(Symbols.Length)] : "AAPL";
            return ("D", $"11=O{step}|55={symbol}|54={side}|60=20260302-09:30:00.000|38={quantity}|40={ordType}|44={price}|59={timeInForce}|{layoutExtra}", "");
        }

        return kind switch
        {
            < 16 => ("0", "", ""),
            16 => ("F", $"11=C{step}|41=O1|55=AAPL|54=1|60=20260302-09:30:00.000|", ""),
            17 => ("V", $"262=MD-{step}|263=1|264=5|267=1|269=0|146=1|55=AAPL|", ""),
            _ => ("D", $"11=P{step}|55=AAPL|54=1|60=20260302-09:30:00.000|38=100|40=2|44=143.42|59=0|{layoutExtra}", "43=Y|122=20260302-09:29:00.000|"),
        };
    }

    /// <summary>Mostly the next number; sometimes one ahead (a gap), one behind (too low), or back to fill a gap.</summary>
    private static int NextSeqNum(Random random, ref int next)
    {
        int seq = next;
        int roll = random.Next(20);
        if (roll == 0)
        {
            seq = next + 1;
        }
        else if (roll == 1 && next > 3)
        {
            seq = next - 1;
        }

        if (seq >= next)
        {
            next = seq + 1;
        }

        if (random.Next(10) == 0)
        {
            next = Math.Max(2, next - 2);
        }

        return seq;
    }

    /// <summary>Every message sent since the last call, without the fields that carry the clock or the length.</summary>
    private static string Sent(GatewayHarness h) => string.Join(
        "\n",
        h.TakeSent().Select(m => string.Join("|", m.Where(kv => kv.Key is not (9 or 10 or 52 or 60)).Select(kv => $"{kv.Key}={kv.Value}"))));

    private static string Commands(GatewayHarness h) => string.Join(
        ",",
        h.Publisher.Commands.Select(c => Convert.ToHexString(MemoryMarshal.AsBytes(new ReadOnlySpan<Command>(in c)))));
}
