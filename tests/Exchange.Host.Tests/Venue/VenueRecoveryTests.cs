using System.Globalization;
using Exchange.Fix.Session;
using Exchange.Host.Journal;
using Xunit;
using Xunit.Abstractions;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// Issue 4 "Recovery": the venue as a real process is killed with SIGKILL while orders stream in, its journal's tail is
/// torn on purpose, and the restarted venue must hold every acknowledged order exactly once, resume the FIX session's
/// sequence numbers from its store, and get the client an acknowledgement for every order it journalled, once: the
/// kill often lands after a command was journalled but before its report was stored, and only the restart's recovery
/// of reports brings that one back. A client that then resends every order it sent as a possible resend (PossResend=Y)
/// gets the status of each one the venue has and a new order for each one it never got, and no order rests twice.
/// </summary>
public sealed class VenueRecoveryTests(ITestOutputHelper output)
{
    private const int Orders = 10_000;
    private const int AckedBeforeKill = 15;

    [Fact]
    public async Task Every_journalled_order_survives_a_kill_and_a_torn_journal_exactly_once_and_its_acknowledgement_reaches_the_client_once()
    {
        using var directory = new TempVenueDirectory();
        string sessions = Path.Combine(directory.Path, "sessions");
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: sessions);
        var acknowledged = new HashSet<string>(StringComparer.Ordinal);
        int lastReceivedSeqNum;
        int sentBeforeKill;
        List<Dictionary<int, string>> seenBeforeKill;

        using (VenueProcess venue = await VenueProcess.StartAsync(directory.Path, config))
        {
            await using FixTestClient client = await FixTestClient.ConnectAsync(venue.EndPoint, "CLIENT1");
            await client.LogonAsync();
            await client.ExpectAsync(m => m[35] == "A", "Logon reply");

            // Resting buys at distinct prices and quantities (nothing crosses), streamed by a second task while this
            // one reads; the venue is killed once the first acknowledgements are in, with the stream still going: the
            // kill then usually finds commands journalled whose reports are not yet stored (the crash window).
            Task<int> streaming = StreamOrdersAsync(client);
            for (int i = 0; i < AckedBeforeKill; i++)
            {
                await client.ExpectExecutionAsync(ClOrdId(i), '0');
                acknowledged.Add(ClOrdId(i));
            }

            venue.Kill();
            int sent = await streaming.WaitAsync(TimeSpan.FromSeconds(60));
            Assert.True(sent > AckedBeforeKill);
            sentBeforeKill = sent;

            // Acknowledgements that reached the socket before the kill count too.
            await client.WaitForCloseAsync(TimeSpan.FromSeconds(10));
            foreach (Dictionary<int, string> message in client.Received.Where(m => m[35] == "8" && m.GetValueOrDefault(150) == "0"))
            {
                acknowledged.Add(message[11]);
            }

            lastReceivedSeqNum = client.LastReceivedSeqNum;
            seenBeforeKill = client.AllReceived;
            output.WriteLine($"sent {sent} orders, {acknowledged.Count} acknowledged before the kill, last venue seq seen {lastReceivedSeqNum}");
        }

        // What the venue's session store says it expects next: the restarted client continues from there. And which
        // orders' acknowledgements it holds: the others the restart must add.
        int expectedFromClient;
        int nextFromVenue;
        var stored = new HashSet<string>(StringComparer.Ordinal);
        using (var store = new FileSessionStore(Path.Combine(sessions, "EXCH-CLIENT1.session"), Exchange.Fix.Session.FsyncPolicy.Never))
        {
            expectedFromClient = store.NextTargetSeqNum;
            nextFromVenue = store.NextSenderSeqNum;
            for (int seq = 1; seq < nextFromVenue; seq++)
            {
                if (store.TryGetOutbound(seq, out StoredMessage message) && Fields(message.Body) is { } fields && fields.GetValueOrDefault(150) == "0")
                {
                    Assert.True(stored.Add(fields[11]), $"the store holds two acknowledgements of {fields[11]}");
                }
            }
        }

        Assert.True(expectedFromClient > AckedBeforeKill + 1, $"the store lost inbound sequence numbers: expects {expectedFromClient}");
        Assert.True(nextFromVenue > lastReceivedSeqNum, $"the store lost outbound sequence numbers: next {nextFromVenue}, client saw {lastReceivedSeqNum}");

        // A torn write at the journal's tail, as a crash in the middle of a write leaves it: half a record (its CRC,
        // written last, missing) right after the last good one, where the writer's zero-filled map tail begins.
        string journalPath = Path.Combine(directory.Path, "journal.bin");
        long goodEnd;
        using (JournalReader scan = JournalReader.Open(journalPath))
        {
            while (scan.TryRead(out _, out _))
            {
            }

            goodEnd = scan.StopOffset;
        }

        using (var journal = new FileStream(journalPath, FileMode.Open, FileAccess.Write))
        {
            byte[] torn = new byte[JournalFormat.RecordSize];
            Array.Fill(torn, (byte)0x5A, 0, JournalFormat.CrcOffset / 2);
            journal.Position = goodEnd;
            journal.Write(torn);
        }

        // Durable before acknowledged: the journal has every acknowledged order (and maybe more).
        HashSet<string> journalled = JournalledOrders(journalPath);
        Assert.Subset(journalled, acknowledged);
        Assert.Subset(journalled, stored);
        int missing = journalled.Count(id => !stored.Contains(id));
        output.WriteLine($"{journalled.Count} orders journalled, {stored.Count} acknowledgements stored: {missing} in the crash window");

        using (VenueProcess venue = await VenueProcess.StartAsync(directory.Path, config))
        {
            output.WriteLine(venue.OutputText);
            Assert.Contains("dropped", venue.OutputText, StringComparison.Ordinal);
            await using FixTestClient client = await FixTestClient.ConnectAsync(venue.EndPoint, "CLIENT1", nextSeqNum: expectedFromClient);
            await client.LogonAsync();
            Dictionary<int, string> logon = await client.ExpectAsync(m => m[35] == "A", "Logon reply after restart");

            // The restart stored one acknowledgement per order in the crash window, after what the store held.
            int logonSeqNum = int.Parse(logon[34], CultureInfo.InvariantCulture);
            Assert.Equal(nextFromVenue + missing, logonSeqNum);

            // The client asks for everything after the last message it saw: what the socket lost at the kill and what
            // the restart added. With what it saw before the kill, that is one acknowledgement per journalled order.
            await client.SendAsync("2", $"7={lastReceivedSeqNum + 1}|16=0|");
            string afterLogon = (logonSeqNum + 1).ToString(CultureInfo.InvariantCulture);
            await client.ExpectAsync(m => m[35] == "4" && m.GetValueOrDefault(36) == afterLogon, "the GapFill that ends the resend");
            List<string> acks =
            [
                .. seenBeforeKill.Where(m => m[35] == "8" && m[150] == "0").Select(m => m[11]),
                .. client.AllReceived.Where(m => m[35] == "8" && m[150] == "0").Select(m => m[11]),
            ];
            Assert.Equal(journalled.Order(StringComparer.Ordinal), acks.Order(StringComparer.Ordinal));

            // A client unsure what reached the venue resends all it sent as possible resends: the journalled ones rest
            // and are answered with their status (ExecType I), the others never arrived and are entered now.
            for (int i = 0; i < sentBeforeKill; i++)
            {
                await client.NewOrderAsync(ClOrdId(i), '1', Quantity(i), Price(i), possResend: true);
            }

            for (int i = 0; i < sentBeforeKill; i++)
            {
                string id = ClOrdId(i);
                Dictionary<int, string> answer = await client.ExpectAsync(
                    m => m[35] == "8" && m[11] == id && m[150] is "I" or "0", $"status or acknowledgement of resent {id}");
                Assert.Equal(journalled.Contains(id) ? "I" : "0", answer[150]);
                Assert.Equal(("0", Quantity(i).ToString(CultureInfo.InvariantCulture)), (answer[39], answer[151]));
            }

            // Every order sent is on the book with its own quantity, and only once: the first cancel succeeds, a second
            // cancel of the same order is refused. Pipelined; replies to one session come in request order.
            string[] ids = [.. Enumerable.Range(0, sentBeforeKill).Select(ClOrdId)];
            foreach (string id in ids)
            {
                await client.CancelAsync("X" + id, id, '1');
            }

            foreach (string id in ids)
            {
                Dictionary<int, string> cancelled = await client.ExpectExecutionAsync("X" + id, '4');
                Assert.Equal(id, cancelled[41]);
                Assert.Equal(Quantity(int.Parse(id.AsSpan(1), CultureInfo.InvariantCulture)).ToString(CultureInfo.InvariantCulture), cancelled[38]);
            }

            foreach (string id in ids)
            {
                await client.CancelAsync("Y" + id, id, '1');
            }

            foreach (string id in ids)
            {
                await client.ExpectAsync(m => m[35] == "9" && m[11] == "Y" + id, $"OrderCancelReject for a second cancel of {id}");
            }

            // The venue accepted the continued numbering: it never asked the client for a resend.
            Assert.DoesNotContain(client.AllReceived, m => m[35] == "2");
        }
    }

    /// <summary>Sends up to <see cref="Orders"/> orders until the connection dies; returns how many were sent.</summary>
    private static async Task<int> StreamOrdersAsync(FixTestClient client)
    {
        int sent = 0;
        try
        {
            for (; sent < Orders; sent++)
            {

                await client.NewOrderAsync(ClOrdId(sent), '1', Quantity(sent), Price(sent));
                if (sent % 128 == 127)
                {
                    await Task.Yield();
                }
            }
        }
        catch (Exception exception) when (exception is System.Net.Sockets.SocketException or ObjectDisposedException or IOException)
        {
            // The venue was killed mid-stream.
        }

        return sent;
    }

    /// <summary>ClOrdIDs of the new orders in the journal's valid records (CLIENT1 is owner 0 and the only sender).</summary>
    private static HashSet<string> JournalledOrders(string journalPath)
    {
        var ids = new HashSet<string>(StringComparer.Ordinal);
        using JournalReader reader = JournalReader.Open(journalPath);
        while (reader.TryRead(out _, out Exchange.Core.Commands.Command command))
        {
            Assert.Equal(0, command.OwnerId);
            if (command.Type == Exchange.Core.Commands.CommandType.NewOrder)
            {
                Assert.True(ids.Add(command.ClOrdId.ToString()), $"{command.ClOrdId} journalled twice");
            }
        }

        return ids;
    }

    /// <summary>A stored message body's fields (first of each tag).</summary>
    private static Dictionary<int, string> Fields(ReadOnlySpan<byte> body)
    {
        var fields = new Dictionary<int, string>();
        foreach (string field in System.Text.Encoding.ASCII.GetString(body).Split('\u0001', StringSplitOptions.RemoveEmptyEntries))
        {
            int equals = field.IndexOf('=', StringComparison.Ordinal);
            fields.TryAdd(int.Parse(field.AsSpan(0, equals), CultureInfo.InvariantCulture), field[(equals + 1)..]);
        }

        return fields;
    }

    private static string ClOrdId(int i) => "N" + i.ToString(CultureInfo.InvariantCulture);

    private static long Quantity(int i) => 100 + i;

    private static string Price(int i) => (50 + (i * 0.01m)).ToString("0.00", CultureInfo.InvariantCulture);
}
