using System.Net.Sockets;
using System.Text;
using Exchange.Fix.Codec;

namespace Exchange.LoadClient.Session;

/// <summary>
/// The initiator's side of one FIX 4.4 session over a connected socket: outbound sequence numbers, the send lock, and
/// the admin messages (Logon with ResetSeqNumFlag=Y, Heartbeat answering TestRequest, SequenceReset-GapFill answering
/// a ResendRequest since the client keeps no message store, Logout). Inbound state (logged on, logged out) is set by
/// <see cref="ReplyReader"/>.
/// </summary>
/// <remarks>
/// Threading: every send takes <see cref="SendLock"/> and assigns the sequence number inside it, so messages reach the
/// socket in sequence order whether the sender or the reader thread sends. Allocation: none per message.
/// </remarks>
internal sealed class FixClientSession : IDisposable
{
    private readonly Socket _socket;
    private readonly byte[] _sender;
    private readonly byte[] _target;
    private readonly byte[] _adminBuffer = new byte[FixMessageWriter.TypicalMaxLength];
    private int _nextSeqNum = 1;
    private volatile bool _loggedOn;
    private volatile bool _logoutReceived;

    public FixClientSession(Socket socket, string senderCompId, string targetCompId, bool busyPoll)
    {
        _socket = socket ?? throw new ArgumentNullException(nameof(socket));
        _sender = Encoding.ASCII.GetBytes(senderCompId);
        _target = Encoding.ASCII.GetBytes(targetCompId);
        BusyPoll = busyPoll;
    }

    public Socket Socket => _socket;

    public bool BusyPoll { get; }

    /// <summary>Held while a sequence number is assigned and its message written to the socket.</summary>
    public Lock SendLock { get; } = new();

    public bool IsLoggedOn => _loggedOn;

    public bool LogoutReceived => _logoutReceived;

    /// <summary>Text (58) of the last Logout or Reject received, for the report.</summary>
    public string? LastSessionText { get; set; }

    /// <summary>The next outbound MsgSeqNum; take it (and send) only while holding <see cref="SendLock"/>.</summary>
    public int TakeSeqNum() => _nextSeqNum++;

    public static Socket Connect(string host, int port, bool busyPoll)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            socket.ReceiveBufferSize = 4 << 20;
            socket.SendBufferSize = 4 << 20;
            socket.Connect(host, port);
            socket.Blocking = !busyPoll;
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    public void SendLogon(int heartBtInt)
    {
        lock (SendLock)
        {
            var w = Begin("A"u8);
            w.AddInt(FixTags.EncryptMethod, 0);
            w.AddInt(FixTags.HeartBtInt, heartBtInt);
            w.AddBool(FixTags.ResetSeqNumFlag, true);
            SendAdmin(ref w);
        }
    }

    public void SendHeartbeat(ReadOnlySpan<byte> testReqId)
    {
        lock (SendLock)
        {
            var w = Begin("0"u8);
            if (!testReqId.IsEmpty)
            {
                w.AddSpan(FixTags.TestReqID, testReqId);
            }

            SendAdmin(ref w);
        }
    }

    /// <summary>Answers a ResendRequest: nothing is stored, so gap-fill up to the next number (43=Y, 123=Y, 36).</summary>
    public void SendGapFill(int beginSeqNo)
    {
        lock (SendLock)
        {
            long now = UnixNanosNow();
            var w = new FixMessageWriter(_adminBuffer);
            w.Begin("4"u8, new FixHeader(_sender, _target, beginSeqNo, now) { PossDup = true, OrigSendingTime = now });
            w.AddBool(FixTags.GapFillFlag, true);
            w.AddInt(FixTags.NewSeqNo, _nextSeqNum);
            SendAll(_adminBuffer.AsSpan(0, w.Finish()));
        }
    }

    public void SendLogout()
    {
        lock (SendLock)
        {
            var w = Begin("5"u8);
            SendAdmin(ref w);
        }
    }

    public void MarkLoggedOn() => _loggedOn = true;

    public void MarkLogoutReceived()
    {
        _logoutReceived = true;
        _loggedOn = false;
    }

    /// <summary>Writes all of <paramref name="bytes"/>; on a non-blocking socket spins through WouldBlock. Call under the lock.</summary>
    public void SendAll(ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            int sent = SocketCalls.Send(_socket, bytes, out SocketError error);
            if (error == SocketError.WouldBlock)
            {
                Thread.SpinWait(20);
                continue;
            }

            if (error != SocketError.Success)
            {
                throw new SocketException((int)error);
            }

            bytes = bytes[sent..];
        }
    }

    public static long UnixNanosNow() => (DateTime.UtcNow.Ticks - DateTime.UnixEpoch.Ticks) * 100;

    public void Dispose() => _socket.Dispose();

    private FixMessageWriter Begin(ReadOnlySpan<byte> msgType)
    {
        var w = new FixMessageWriter(_adminBuffer);
        w.Begin(msgType, new FixHeader(_sender, _target, TakeSeqNum(), UnixNanosNow()));
        return w;
    }

    private void SendAdmin(ref FixMessageWriter w) => SendAll(_adminBuffer.AsSpan(0, w.Finish()));
}
