using System.Globalization;
using Exchange.Fix.Session;
using Exchange.Host.Journal;
using Xunit;
using Xunit.Abstractions;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// Issue 4 "Recovery": the venue as a real process is killed with SIGKILL while orders stream in, its journal's tail is
/// torn on purpose, and the restarted venue must hold every acknowledged order exactly once and resume the FIX
/// session's sequence numbers from its store.
/// </summary>
public sealed class VenueRecoveryTests(ITestOutputHelper output)
{
    private const int Orders = 400;
    private const int AckedBeforeKill = 15;

    [Fact]
    public async Task Every_acknowledged_order_survives_a_kill_and_a_torn_journal_exactly_once_and_sequence_numbers_resume()
    {
        using var directory = new TempVenueDirectory();
        string sessions = Path.Combine(directory.Path, "sessions");
        string config = VenueConfigFile.Write(directory.Path, port: 0, storePath: sessions);
        var acknowledged = new HashSet<string>(StringComparer.Ordinal);
        int lastReceivedSeqNum;

        using (VenueProcess venue = await VenueProcess.StartAsync(directory.Path, config))
        {
            await using FixTestClient client = await FixTestClient.ConnectAsync(venue.EndPoint, "CLIENT1");
            await client.LogonAsync();
            await client.ExpectAsync(m => m[35] == "A", "Logon reply");

            // Resting buys at distinct prices and quantities (nothing crosses), streamed by a second task while this
            // one reads; the venue is killed once the first acknowledgements are in, with the stream still going.
            Task<int> streaming = StreamOrdersAsync(client);
            for (int i = 0; i < AckedBeforeKill; i++)
            {
                await client.ExpectExecutionAsync(ClOrdId(i), '0');
                acknowledged.Add(ClOrdId(i));
            }

            venue.Kill();
            int sent = await streaming.WaitAsync(TimeSpan.FromSeconds(30));
            Assert.True(sent > AckedBeforeKill);

            // Acknowledgements that reached the socket before the kill count too.
            await client.WaitForCloseAsync(TimeSpan.FromSeconds(10));
            foreach (Dictionary<int, string> message in client.Received.Where(m => m[35] == "8" && m.GetValueOrDefault(150) == "0"))
            {
                acknowledged.Add(message[11]);
            }

            lastReceivedSeqNum = client.LastReceivedSeqNum;
            output.WriteLine($"sent {sent} orders, {acknowledged.Count} acknowledged before the kill, last venue seq seen {lastReceivedSeqNum}");
        }

        // What the venue's session store says it expects next: the restarted client continues from there.
        int expectedFromClient;
        int nextFromVenue;
        using (var store = new FileSessionStore(Path.Combine(sessions, "EXCH-CLIENT1.session"), Exchange.Fix.Session.FsyncPolicy.Never))
        {
            expectedFromClient = store.NextTargetSeqNum;
            nextFromVenue = store.NextSenderSeqNum;
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

        using (VenueProcess venue = await VenueProcess.StartAsync(directory.Path, config))
        {
            output.WriteLine(venue.OutputText);
            Assert.Contains("dropped", venue.OutputText, StringComparison.Ordinal);
            await using FixTestClient client = await FixTestClient.ConnectAsync(venue.EndPoint, "CLIENT1", nextSeqNum: expectedFromClient);
            await client.LogonAsync();
            Dictionary<int, string> logon = await client.ExpectAsync(m => m[35] == "A", "Logon reply after restart");
            Assert.Equal(nextFromVenue.ToString(CultureInfo.InvariantCulture), logon[34]);

            // Every acknowledged order is on the book with its own quantity, and only once: the first cancel succeeds,
            // a second cancel of the same order is refused. Pipelined; replies to one session come in request order.
            string[] ids = [.. acknowledged.Order(StringComparer.Ordinal)];
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

            // No resend was needed: the venue accepted the continued numbering without a ResendRequest or a reset.
            Assert.DoesNotContain(client.AllReceived, m => m[35] is "2" or "4");
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
                if (sent % 8 == 7)
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

    private static string ClOrdId(int i) => "N" + i.ToString(CultureInfo.InvariantCulture);

    private static long Quantity(int i) => 100 + i;

    private static string Price(int i) => (50 + (i * 0.01m)).ToString("0.00", CultureInfo.InvariantCulture);
}
