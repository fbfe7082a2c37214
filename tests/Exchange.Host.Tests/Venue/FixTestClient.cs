using System.Buffers;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// A minimal FIX 4.4 initiator over a raw TCP socket for end-to-end tests: messages are built with the codec's
/// <see cref="FixMessageWriter"/> (header, body length, checksum) and replies framed with <see cref="FixFramer"/>.
/// Every wait is bounded. Not thread-safe: one test drives one client.
/// </summary>
internal sealed class FixTestClient : IAsyncDisposable
{
    private static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(15);

    private readonly Socket _socket;
    private readonly byte[] _senderCompId;
    private readonly byte[] _targetCompId;
    private readonly FixFramer _framer = new();
    private readonly FixMessage _message = new();
    private readonly byte[] _receive = new byte[64 * 1024];
    private byte[] _pending = [];

    private FixTestClient(Socket socket, string senderCompId, string targetCompId, int nextSeqNum)
    {
        _socket = socket;
        _senderCompId = Encoding.ASCII.GetBytes(senderCompId);
        _targetCompId = Encoding.ASCII.GetBytes(targetCompId);
        NextSeqNum = nextSeqNum;
    }

    /// <summary>MsgSeqNum of the next message this client sends.</summary>
    public int NextSeqNum { get; private set; }

    /// <summary>Highest MsgSeqNum received from the venue (0 before any).</summary>
    public int LastReceivedSeqNum { get; private set; }

    /// <summary>Messages received and not yet passed over by an Expect call, in order.</summary>
    public List<Dictionary<int, string>> Received { get; } = [];

    /// <summary>Every message received on this connection, in order.</summary>
    public List<Dictionary<int, string>> AllReceived { get; } = [];

    public static async Task<FixTestClient> ConnectAsync(IPEndPoint endPoint, string senderCompId, string targetCompId = "EXCH", int nextSeqNum = 1)
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        using var timeout = new CancellationTokenSource(DefaultTimeout);
        await socket.ConnectAsync(endPoint, timeout.Token);
        return new FixTestClient(socket, senderCompId, targetCompId, nextSeqNum);
    }

    /// <summary>Sends one message; <paramref name="fields"/> uses '|' as the field separator ("11=A|55=AAPL|").</summary>
    public async Task SendAsync(string msgType, string fields)
    {
        var output = new ArrayBufferWriter<byte>(1024);
        long now = (DateTime.UtcNow.Ticks - DateTime.UnixEpoch.Ticks) * 100;
        var writer = new FixMessageWriter(output.GetSpan(FixMessageWriter.TypicalMaxLength));
        writer.Begin(Encoding.ASCII.GetBytes(msgType), new FixHeader(_senderCompId, _targetCompId, NextSeqNum++, now));
        writer.AddRaw(Encoding.ASCII.GetBytes(fields.Replace('|', '\u0001')));
        writer.FinishTo(output);
        await _socket.SendAsync(output.WrittenMemory, SocketFlags.None);
    }

    public Task LogonAsync(int heartBtInt = 30) => SendAsync("A", $"98=0|108={heartBtInt}|");

    /// <summary>A limit Day order; <paramref name="possResend"/> adds PossResend (97=Y), a header field, right after SendingTime.</summary>
    public Task NewOrderAsync(string clOrdId, char side, long quantity, string price, string symbol = "AAPL", bool possResend = false) =>
        SendAsync("D", $"{(possResend ? "97=Y|" : "")}11={clOrdId}|55={symbol}|54={side}|60={Now()}|38={quantity}|40=2|44={price}|59=0|");

    public Task CancelAsync(string clOrdId, string origClOrdId, char side, string symbol = "AAPL") =>
        SendAsync("F", $"41={origClOrdId}|11={clOrdId}|55={symbol}|54={side}|60={Now()}|");

    /// <summary>Reads until a message matching <paramref name="match"/> arrives; fails the test on timeout or close.</summary>
    public async Task<Dictionary<int, string>> ExpectAsync(Func<Dictionary<int, string>, bool> match, string what, TimeSpan? timeout = null)
    {
        using var cancel = new CancellationTokenSource(timeout ?? DefaultTimeout);
        int scanned = 0;
        while (true)
        {
            for (; scanned < Received.Count; scanned++)
            {
                if (match(Received[scanned]))
                {
                    Dictionary<int, string> found = Received[scanned];
                    Received.RemoveRange(0, scanned + 1);
                    return found;
                }
            }

            try
            {
                if (!await ReceiveMoreAsync(cancel.Token))
                {
                    Assert.Fail($"venue closed the connection while waiting for {what}; received: {Describe()}");
                }
            }
            catch (OperationCanceledException)
            {
                Assert.Fail($"timed out waiting for {what}; received: {Describe()}");
            }
        }
    }

    /// <summary>Waits for an ExecutionReport with ExecType <paramref name="execType"/> for <paramref name="clOrdId"/>.</summary>
    public Task<Dictionary<int, string>> ExpectExecutionAsync(string clOrdId, char execType) =>
        ExpectAsync(
            m => m[35] == "8" && m.GetValueOrDefault(11) == clOrdId && m.GetValueOrDefault(150) == execType.ToString(),
            $"ExecutionReport 150={execType} for {clOrdId}");

    /// <summary>True when the venue closed the connection before <paramref name="timeout"/> (draining what it sent).</summary>
    public async Task<bool> WaitForCloseAsync(TimeSpan timeout)
    {
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            while (await ReceiveMoreAsync(cancel.Token))
            {
            }

            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    public ValueTask DisposeAsync()
    {
        _socket.Dispose();
        return ValueTask.CompletedTask;
    }

    public static string Now() => DateTime.UtcNow.ToString("yyyyMMdd-HH:mm:ss.fff", CultureInfo.InvariantCulture);

    private string Describe() => string.Join(" / ", Received.Select(m => string.Join("|", m.Select(kv => $"{kv.Key}={kv.Value}"))));

    // Receives once and frames every complete message into Received; false when the venue closed the connection.
    private async Task<bool> ReceiveMoreAsync(CancellationToken cancellationToken)
    {
        int n;
        try
        {
            n = await _socket.ReceiveAsync(_receive, SocketFlags.None, cancellationToken);
        }
        catch (SocketException)
        {
            return false;
        }

        if (n == 0)
        {
            return false;
        }

        _pending = [.. _pending, .. _receive.AsSpan(0, n)];
        var sequence = new ReadOnlySequence<byte>(_pending);
        while (true)
        {
            FrameResult result = _framer.TryReadFrame(sequence, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out _, out GarbledReason why);
            if (result == FrameResult.Incomplete)
            {
                break;
            }

            Assert.True(result == FrameResult.Complete, $"venue sent an invalid frame: {why}");
            _message.Parse(frame);
            var fields = new Dictionary<int, string>();
            for (int i = 0; i < _message.FieldCount; i++)
            {
                fields.TryAdd(_message.TagAt(i), Encoding.ASCII.GetString(_message.ValueAt(i)));
            }

            if (fields.TryGetValue(34, out string? seq))
            {
                LastReceivedSeqNum = int.Parse(seq, CultureInfo.InvariantCulture);
            }

            Received.Add(fields);
            AllReceived.Add(fields);
            sequence = sequence.Slice(consumed);
        }

        _pending = sequence.ToArray();
        return true;
    }
}
