using System.Buffers;
using System.Globalization;
using System.Text;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;
using Exchange.Fix.Gateway;
using Exchange.Fix.Session;
using Exchange.Fix.Tests.Codec;
using Exchange.Fix.Tests.Session;
using Xunit;

using Exchange.Tests.Shared;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>A gateway with one session (VENUE serving CLIENT1, owner 0) and a synchronously driven connection.</summary>
internal sealed class GatewayHarness : IDisposable
{
    public static readonly Instrument Aapl = new(0, "AAPL", 4, 100, 1, 100, 10_000_000);
    public static readonly Instrument Msft = new(1, "MSFT", 2, 1, 10, 1, 1_000_000);

    private int _clientSeq = 1;

    /// <param name="sessions">Sessions to configure; CLIENT1 (owner 0) alone by default, which the helpers drive.</param>
    public GatewayHarness(GatewayOptions? options = null, Func<SessionConfig, ISessionStore>? storeFactory = null, IReadOnlyList<SessionConfig>? sessions = null)
    {
        Gateway = new FixGateway(
            sessions ?? [new SessionConfig("VENUE", "CLIENT1")],
            [Aapl, Msft],
            Clock,
            storeFactory ?? (_ => new MemorySessionStore()),
            Publisher,
            MarketData,
            options ?? new GatewayOptions(),
            Log);
        Handler = Gateway.CreateHandler(Connection);
    }

    public FakeClock Clock { get; } = new();

    public RecordingPublisher Publisher { get; } = new();

    public RecordingMarketData MarketData { get; } = new();

    public ListLog Log { get; } = new();

    public FakeConnection Connection { get; private set; } = new();

    public FixGateway Gateway { get; }

    internal ConnectionHandler Handler { get; private set; }

    /// <summary>MsgSeqNum of the client's next message; set it to resume a session a previous gateway served.</summary>
    public int NextClientSeq
    {
        get => _clientSeq;
        set => _clientSeq = value;
    }

    /// <summary>
    /// A client message with the standard header filled in ('|' for SOH in <paramref name="fields"/>), and
    /// <paramref name="header"/> (optional header fields such as "97=Y|") after SendingTime.
    /// </summary>
    public byte[] Message(string msgType, string fields, int? seq = null, string header = "")
    {
        int number = seq ?? _clientSeq++;
        string time = DateTime.UnixEpoch.AddTicks(Clock.UtcNowNanos / 100).ToString("yyyyMMdd-HH:mm:ss.fff", CultureInfo.InvariantCulture);
        return FixTestMessages.Wrap($"35={msgType}|49=CLIENT1|56=VENUE|34={number}|52={time}|{header}{fields}");
    }

    public void Feed(byte[] bytes)
    {
        var buffer = new ReadOnlySequence<byte>(bytes);
        Handler.Process(buffer, out SequencePosition consumed, out _);
        Assert.Equal(buffer.End, consumed);
    }

    public void Send(string msgType, string fields) => Feed(Message(msgType, fields));

    /// <summary>The client's connection ends; a new one, not logged on yet, takes its place.</summary>
    public void Reconnect()
    {
        Handler.Detach("the client went away");
        Connection = new FakeConnection();
        Handler = Gateway.CreateHandler(Connection);
    }

    public void LogOn()
    {
        Send("A", "98=0|108=30|");
        List<Dictionary<int, string>> sent = TakeSent();
        Assert.Equal("A", Assert.Single(sent)[35]);
        Assert.True(Gateway.IsLoggedOn(0));
    }

    public static string NewOrder(string clOrdId = "ORD-1", string symbol = "AAPL", string price = "143.42", int quantity = 100) =>
        $"11={clOrdId}|55={symbol}|54=1|60=20260302-09:30:00.000|38={quantity}|40=2|44={price}|59=0|";

    /// <summary>Every message flushed to the connection since the last call, parsed (first occurrence of each tag).</summary>
    public List<Dictionary<int, string>> TakeSent()
    {
        List<Dictionary<int, string>> result = Parse(Connection.Recorded.Flushed);
        Connection.Recorded.Clear();
        return result;
    }

    public static List<Dictionary<int, string>> Parse(ReadOnlySpan<byte> bytes)
    {
        var result = new List<Dictionary<int, string>>();
        var framer = new FixFramer();
        var message = new FixMessage();
        var sequence = new ReadOnlySequence<byte>(bytes.ToArray());
        while (!sequence.IsEmpty)
        {
            FrameResult r = framer.TryReadFrame(sequence, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out _, out GarbledReason why);
            Assert.True(r == FrameResult.Complete, $"venue sent an invalid frame: {r} {why}");
            message.Parse(frame);
            var fields = new Dictionary<int, string>();
            for (int i = 0; i < message.FieldCount; i++)
            {
                fields.TryAdd(message.TagAt(i), Encoding.ASCII.GetString(message.ValueAt(i)));
            }

            result.Add(fields);
            sequence = sequence.Slice(consumed);
        }

        return result;
    }

    public void Dispose() => Gateway.Dispose();
}
