using System.Globalization;
using System.Net;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Engine;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Exchange.Host.Configuration;
using Exchange.Fix.Session;
using Exchange.Host.Journal;
using Exchange.Host.Venue;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// The crash window between journalling a command and storing its reports, made deterministic: a venue runs and stops
/// with every report stored, then commands are appended to its journal as if the venue had journalled them and died
/// before its sender stored their reports. The restarted venue must store exactly those reports for each session, and
/// each client must get every one of them, once, through the ResendRequest its Logon's higher MsgSeqNum calls for.
/// </summary>
public sealed class VenueReportRecoveryTests
{
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task Reports_of_journalled_commands_missing_from_the_session_stores_reach_each_client_once_after_a_restart(string pipelineMode)
    {
        using var directory = new TempVenueDirectory();
        string sessions = Path.Combine(directory.Path, "sessions");
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: sessions, pipelineMode: pipelineMode);

        // Before the crash: two resting buys from CLIENT1, both acknowledged and stored; CLIENT2 only logs on.
        var execIdsBefore = new HashSet<string>(StringComparer.Ordinal);
        (int buyerSeq, int sellerSeq, int buyerLastSeen, int sellerLastSeen) = await RestTwoBuysAsync(config, execIdsBefore);

        AppendCrashWindow(directory.JournalPath);

        using (IHost venue = await StartAsync(config))
        {
            IPEndPoint endPoint = await EndPointOf(venue);

            await using FixTestClient buyer = await LogOnAsync(endPoint, "CLIENT1", buyerSeq);
            List<Dictionary<int, string>> buyerReports = await ResendAsync(buyer, from: buyerLastSeen + 1);
            Assert.Equal(BuyerCrashWindowReports, buyerReports.Select(m => $"{m[35]} {m.GetValueOrDefault(150, "-")} {m[11]}"));
            Assert.Equal(("70", "101", "50", "100"), (buyerReports[1][32], buyerReports[1][31], buyerReports[2][32], buyerReports[2][31]));
            Assert.Equal("B2", buyerReports[5][41]);

            await using FixTestClient seller = await LogOnAsync(endPoint, "CLIENT2", sellerSeq);
            List<Dictionary<int, string>> sellerReports = await ResendAsync(seller, from: sellerLastSeen + 1);
            Assert.Equal(SellerCrashWindowReports, sellerReports.Select(m => $"{m[150]} {m[151]}"));

            // ExecIDs continue the engine's numbering: none repeats one the buyer had before the crash, none repeats
            // across the two sessions, and a new order after the restart takes the next one.
            string[] recoveredExecIds = [.. buyerReports.Concat(sellerReports).Where(m => m[35] == "8").Select(m => m[17])];
            Assert.Equal(recoveredExecIds.Length, recoveredExecIds.Distinct().Count());
            Assert.DoesNotContain(recoveredExecIds, execIdsBefore.Contains);
            await buyer.NewOrderAsync("B5", '1', 5, "98.00");
            Dictionary<int, string> fresh = await buyer.ExpectExecutionAsync("B5", '0');
            Assert.True(long.Parse(fresh[17], CultureInfo.InvariantCulture) > recoveredExecIds.Max(id => long.Parse(id, CultureInfo.InvariantCulture)));
            Assert.Equal("N", fresh.GetValueOrDefault(43, "N"));

            // The book agrees with the reports: B1 has 50 of 100 left.
            await buyer.CancelAsync("C3", "B1", '1');
            Assert.Equal("50", (await buyer.ExpectExecutionAsync("C3", '4'))[14]);
            Assert.Equal(buyerReports.Count + sellerReports.Count, venue.Services.GetRequiredService<VenueService>().RecoveredReports);
            await buyer.DisposeAsync();
            await seller.DisposeAsync();
            await venue.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }

        // Another restart over the same journal stores nothing new: every report is in each store exactly once.
        (int, int) before = NextSenderSeqNums(sessions);
        using (IHost venue = await StartAsync(config))
        {
            Assert.Equal(0, venue.Services.GetRequiredService<VenueService>().RecoveredReports);
            await venue.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }

        Assert.Equal(before, NextSenderSeqNums(sessions));
    }

    [Fact]
    public async Task A_start_stopped_part_way_through_the_replay_leaves_the_next_start_to_store_the_rest_of_the_reports_once()
    {
        using var directory = new TempVenueDirectory();
        string sessions = Path.Combine(directory.Path, "sessions");
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: sessions);
        (int buyerSeq, int sellerSeq, int buyerLastSeen, int sellerLastSeen) = await RestTwoBuysAsync(config, []);

        AppendCrashWindow(directory.JournalPath);

        // A stop asked for while the next start replays S1: the reports of B3 and S1 are stored (three for each
        // client), those of C1, B4 and C2 are not, and the process exits 0 without opening its listener.
        (int Client1, int Client2) beforeCut = NextSenderSeqNums(sessions);
        IHost cut = VenueHost.BuildWithEngine(config, (provider, instruments) =>
        {
            VenueEngine real = VenueEngine.FromPlugins(provider.GetRequiredService<VenueOptions>(), instruments);
            Action stop = provider.GetRequiredService<IHostApplicationLifetime>().StopApplication;
            return real with { Engine = new StopAfter(real.Engine, ClOrdId.From("S1"), stop) };
        });
        using var error = new StringWriter();
        Assert.Equal(0, await VenueProgram.RunHostAsync(cut, error).WaitAsync(TimeSpan.FromSeconds(60)));
        Assert.Equal((beforeCut.Client1 + 3, beforeCut.Client2 + 3), NextSenderSeqNums(sessions));

        // The next start stores only the three reports still missing, and each client gets every one once.
        using (IHost venue = await StartAsync(config))
        {
            Assert.Equal(3, venue.Services.GetRequiredService<VenueService>().RecoveredReports);
            IPEndPoint endPoint = await EndPointOf(venue);
            await using FixTestClient buyer = await LogOnAsync(endPoint, "CLIENT1", buyerSeq);
            List<Dictionary<int, string>> buyerReports = await ResendAsync(buyer, from: buyerLastSeen + 1);
            Assert.Equal(BuyerCrashWindowReports, buyerReports.Select(m => $"{m[35]} {m.GetValueOrDefault(150, "-")} {m[11]}"));
            await using FixTestClient seller = await LogOnAsync(endPoint, "CLIENT2", sellerSeq);
            List<Dictionary<int, string>> sellerReports = await ResendAsync(seller, from: sellerLastSeen + 1);
            Assert.Equal(SellerCrashWindowReports, sellerReports.Select(m => $"{m[150]} {m[151]}"));
            await buyer.DisposeAsync();
            await seller.DisposeAsync();
            await venue.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }
    }

    /// <summary>
    /// The same crash window, and a fill of a resting order while its client was logged out, for a client that logs on
    /// with ResetSeqNumFlag=Y (as many do at every connect): the reset cannot be answered by a ResendRequest, so the
    /// reports it never got must follow the reply Logon as new messages, once, in order, and nothing it had before.
    /// </summary>
    [Theory]
    [InlineData("Threaded")]
    [InlineData("Inline")]
    public async Task Reports_a_client_never_got_follow_the_reply_to_its_reset_logon_once(string pipelineMode)
    {
        using var directory = new TempVenueDirectory();
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: Path.Combine(directory.Path, "sessions"), pipelineMode: pipelineMode);
        var execIdsBefore = new HashSet<string>(StringComparer.Ordinal);
        using (IHost venue = await StartAsync(config))
        {
            IPEndPoint endPoint = await EndPointOf(venue);
            await using FixTestClient buyer = await LogOnAsync(endPoint, "CLIENT1", nextSeqNum: 1);
            await buyer.NewOrderAsync("B1", '1', 100, "100.00");
            execIdsBefore.Add((await buyer.ExpectExecutionAsync("B1", '0'))[17]);
            await buyer.NewOrderAsync("B2", '1', 30, "99.00");
            execIdsBefore.Add((await buyer.ExpectExecutionAsync("B2", '0'))[17]);
            await LogOutAsync(buyer);

            // The buyer is away when its resting B1 trades: its fill is stored, never written.
            await using FixTestClient seller = await LogOnAsync(endPoint, "CLIENT2", nextSeqNum: 1);
            await seller.NewOrderAsync("S0", '2', 20, "100.00");
            await seller.ExpectExecutionAsync("S0", 'F');
            await LogOutAsync(seller);
            await venue.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }

        // Journalled, never reported (the crash window): B3 rests, B2 is cancelled.
        AppendToJournal(directory.JournalPath, Order(owner: 0, "B3", Side.Buy, 70, 1_010_000), Cancel(owner: 0, "C2", "B2"));

        using (IHost venue = await StartAsync(config))
        {
            Assert.Equal(2, venue.Services.GetRequiredService<VenueService>().RecoveredReports);
            await using FixTestClient buyer = await ResetLogOnAsync(await EndPointOf(venue), "CLIENT1");
            await buyer.NewOrderAsync("B4", '1', 5, "98.00");
            await buyer.ExpectExecutionAsync("B4", '0');

            List<Dictionary<int, string>> reports = [.. buyer.AllReceived.Where(m => m[35] is "8" or "9")];
            Assert.Equal(
                ["2 F B1 20", "3 0 B3 0", "4 4 C2 0", "5 0 B4 0"],
                reports.Select(m => $"{m[34]} {m[150]} {m[11]} {m[14]}"));
            Assert.All(reports, m => Assert.Equal("N", m.GetValueOrDefault(43, "N")));
            Assert.Equal("B2", reports[2][41]);
            string[] execIds = [.. reports.Select(m => m[17])];
            Assert.Equal(execIds.Length, execIds.Distinct().Count());
            Assert.DoesNotContain(execIds, execIdsBefore.Contains);
            await LogOutAsync(buyer);
            await venue.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }

        // Delivered once: the next start recovers nothing and a reset Logon is followed by nothing but new traffic.
        using (IHost venue = await StartAsync(config))
        {
            Assert.Equal(0, venue.Services.GetRequiredService<VenueService>().RecoveredReports);
            await using FixTestClient buyer = await ResetLogOnAsync(await EndPointOf(venue), "CLIENT1");
            await buyer.SendAsync("1", "112=PROBE|");
            Dictionary<int, string> heartbeat = await buyer.ExpectAsync(m => m[35] == "0" && m.GetValueOrDefault(112) == "PROBE", "Heartbeat PROBE");
            Assert.Equal("2", heartbeat[34]);
            Assert.DoesNotContain(buyer.AllReceived, m => m[35] is "8" or "9");
            await LogOutAsync(buyer);
            await venue.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }
    }

    /// <summary>Logs on with ResetSeqNumFlag=Y as number 1 and checks the reply is number 1 with the flag.</summary>
    private static async Task<FixTestClient> ResetLogOnAsync(IPEndPoint endPoint, string compId)
    {
        FixTestClient client = await FixTestClient.ConnectAsync(endPoint, compId, nextSeqNum: 1);
        await client.SendAsync("A", "98=0|108=30|141=Y|");
        Dictionary<int, string> reply = await client.ExpectAsync(m => m[35] == "A", $"Logon reply to {compId}");
        Assert.Equal(("1", "Y"), (reply[34], reply.GetValueOrDefault(141)));
        return client;
    }

    /// <summary>What <see cref="AppendCrashWindow"/> owes CLIENT1: MsgType, ExecType ("-" for none) and ClOrdID of each report, in order.</summary>
    private static readonly string[] BuyerCrashWindowReports = ["8 0 B3", "8 F B3", "8 F B1", "9 - C1", "8 8 B4", "8 4 C2"];

    /// <summary>What <see cref="AppendCrashWindow"/> owes CLIENT2: ExecType and LeavesQty of each report, in order.</summary>
    private static readonly string[] SellerCrashWindowReports = ["0 120", "F 50", "F 0"];

    private static Task<IHost> StartAsync(string config) => VenueHost.StartAsync(config);

    /// <summary>
    /// The crash window, after <see cref="RestTwoBuysAsync"/>: commands journalled whose reports were never stored.
    /// Owner 0 is CLIENT1, owner 1 CLIENT2 (configuration order).
    /// </summary>
    private static void AppendCrashWindow(string journalPath) => AppendToJournal(
        journalPath,
        Order(owner: 0, "B3", Side.Buy, 70, 1_010_000),     // rests:                    CLIENT1 Accepted
        Order(owner: 1, "S1", Side.Sell, 120, 995_000),     // takes B3 70, then B1 50:  CLIENT2 Accepted, Trade, Trade; CLIENT1 Trade B3, Trade B1
        Cancel(owner: 0, "C1", "NOPE"),                     // unknown order:            CLIENT1 OrderCancelReject
        Order(owner: 0, "B4", Side.Buy, 10, 1_000_050),     // off the 0.01 tick:        CLIENT1 Rejected
        Cancel(owner: 0, "C2", "B2"));                      //                           CLIENT1 Cancelled

    /// <summary>
    /// Runs the venue once: CLIENT1 rests B1 (100 at 100.00) and B2 (30 at 99.00), CLIENT2 only logs on, both log out
    /// and the venue stops with every report stored. Returns each client's next MsgSeqNum and the last it received;
    /// adds the two acknowledgements' ExecIDs to <paramref name="execIds"/>.
    /// </summary>
    private static async Task<(int BuyerSeq, int SellerSeq, int BuyerLastSeen, int SellerLastSeen)> RestTwoBuysAsync(string config, HashSet<string> execIds)
    {
        using IHost venue = await StartAsync(config);
        IPEndPoint endPoint = await EndPointOf(venue);
        await using FixTestClient buyer = await LogOnAsync(endPoint, "CLIENT1", nextSeqNum: 1);
        await using FixTestClient seller = await LogOnAsync(endPoint, "CLIENT2", nextSeqNum: 1);
        await buyer.NewOrderAsync("B1", '1', 100, "100.00");
        execIds.Add((await buyer.ExpectExecutionAsync("B1", '0'))[17]);
        await buyer.NewOrderAsync("B2", '1', 30, "99.00");
        execIds.Add((await buyer.ExpectExecutionAsync("B2", '0'))[17]);
        await LogOutAsync(buyer);
        await LogOutAsync(seller);
        await venue.StopAsync().WaitAsync(TimeSpan.FromSeconds(30));
        return (buyer.NextSeqNum, seller.NextSeqNum, buyer.LastReceivedSeqNum, seller.LastReceivedSeqNum);
    }

    private static Task<IPEndPoint> EndPointOf(IHost venue) =>
        venue.Services.GetRequiredService<VenueEndpoint>().Bound.WaitAsync(TimeSpan.FromSeconds(10));

    private static async Task<FixTestClient> LogOnAsync(IPEndPoint endPoint, string compId, int nextSeqNum)
    {
        FixTestClient client = await FixTestClient.ConnectAsync(endPoint, compId, nextSeqNum: nextSeqNum);
        await client.LogonAsync();
        await client.ExpectAsync(m => m[35] == "A", $"Logon reply to {compId}");
        return client;
    }

    private static async Task LogOutAsync(FixTestClient client)
    {
        await client.SendAsync("5", "");
        await client.ExpectAsync(m => m[35] == "5", "Logout reply");
        Assert.True(await client.WaitForCloseAsync(TimeSpan.FromSeconds(10)));
    }

    /// <summary>
    /// What a client does on seeing a Logon numbered past what it expects: asks for everything from
    /// <paramref name="from"/>. Returns the application messages resent (each PossDupFlag=Y), in order, once the
    /// SequenceReset-GapFill over the Logon's own number ends the resend.
    /// </summary>
    private static async Task<List<Dictionary<int, string>>> ResendAsync(FixTestClient client, int from)
    {
        int logon = client.LastReceivedSeqNum;
        Assert.True(logon > from, $"the Logon was numbered {logon}: nothing for the client to ask for after {from - 1}");
        await client.SendAsync("2", $"7={from}|16=0|");
        string afterLogon = (logon + 1).ToString(CultureInfo.InvariantCulture);
        await client.ExpectAsync(m => m[35] == "4" && m.GetValueOrDefault(36) == afterLogon, "the GapFill that ends the resend");
        List<Dictionary<int, string>> resent = [.. client.AllReceived.Where(m => m[35] is "8" or "9")];
        Assert.All(resent, m => Assert.Equal("Y", m[43]));
        Assert.Equal(Enumerable.Range(from, resent.Count).Select(n => n.ToString(CultureInfo.InvariantCulture)), resent.Select(m => m[34]));
        return resent;
    }

    private static void AppendToJournal(string path, params Command[] commands)
    {
        // Appended under the configuration the venue recorded in the journal, as the venue itself would.
        JournalConfiguration configuration;
        using (var file = new FileStream(path, FileMode.Open, FileAccess.Read))
        {
            Assert.Equal(JournalHeaderStatus.Valid, JournalHeader.Read(file, out JournalHeader? header, out string? problem));
            configuration = header!.Configuration;
        }

        using JournalWriter journal = JournalWriter.Open(path, new Exchange.Host.Journal.JournalOptions { FsyncPolicy = Exchange.Host.Journal.FsyncPolicy.Never }, configuration, out JournalScan scan);
        long sequence = scan.LastSequence;
        foreach (Command command in commands)
        {
            Command numbered = command;
            numbered.Sequence = ++sequence;
            journal.Append(in numbered, sequence);
        }

        journal.CommitBatch();
    }

    private static Command Order(int owner, string clOrdId, Side side, long quantity, long price) => new()
    {
        Type = CommandType.NewOrder,
        Side = side,
        OrderType = OrderType.Limit,
        TimeInForce = TimeInForce.Day,
        InstrumentId = 0,
        OwnerId = owner,
        Price = price,
        Quantity = quantity,
        Timestamp = (DateTime.UtcNow.Ticks - DateTime.UnixEpoch.Ticks) * 100,
        ClOrdId = ClOrdId.From(clOrdId),
    };

    private static Command Cancel(int owner, string clOrdId, string origClOrdId) => new()
    {
        Type = CommandType.Cancel,
        Side = Side.Buy,
        InstrumentId = 0,
        OwnerId = owner,
        Timestamp = (DateTime.UtcNow.Ticks - DateTime.UnixEpoch.Ticks) * 100,
        ClOrdId = ClOrdId.From(clOrdId),
        OrigClOrdId = ClOrdId.From(origClOrdId),
    };

    private static (int Client1, int Client2) NextSenderSeqNums(string sessions)
    {
        using var client1 = new FileSessionStore(Path.Combine(sessions, "EXCH-CLIENT1.session"), Exchange.Fix.Session.FsyncPolicy.Never);
        using var client2 = new FileSessionStore(Path.Combine(sessions, "EXCH-CLIENT2.session"), Exchange.Fix.Session.FsyncPolicy.Never);
        return (client1.NextSenderSeqNum, client2.NextSenderSeqNum);
    }

    /// <summary>The engine it wraps, calling <paramref name="stop"/> once the command with <paramref name="last"/> is processed.</summary>
    private sealed class StopAfter(IMatchingEngine engine, ClOrdId last, Action stop) : IMatchingEngine
    {
        public int RestingOrderCount => engine.RestingOrderCount;

        public int ClOrdIdsUsedToday => engine.ClOrdIdsUsedToday;

        public ReadOnlySpan<EngineEvent> Process(in Command command)
        {
            ReadOnlySpan<EngineEvent> events = engine.Process(in command);
            if (command.ClOrdId == last)
            {
                stop();
            }

            return events;
        }

        public long PreFault() => engine.PreFault();

        public void CopyDepth(int instrumentId, ref BookDepth depth) => engine.CopyDepth(instrumentId, ref depth);

        public IReadOnlyList<RestingOrder> GetRestingOrders(int instrumentId, Side side) => engine.GetRestingOrders(instrumentId, side);
    }
}
