using System.Buffers;
using System.Net;
using System.Net.Sockets;
using Exchange.Fix.Codec;

namespace Exchange.Host.Tests.LoadClient;

/// <summary>
/// A minimal FIX acceptor for loopback tests of the load client (not the venue): answers Logon, acknowledges every
/// NewOrderSingle with an ExecutionReport (150=0, or 150=F for IOC orders, echoing ClOrdID and optional stage stamps),
/// answers Logout and closes. One connection, one thread.
/// </summary>
internal sealed class FakeAcceptor : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly Thread _thread;
    private readonly bool _stamp;
    private int _seq = 1;

    public FakeAcceptor(bool stampStages)
    {
        _stamp = stampStages;
        _listener.Start();
        _thread = new Thread(Serve) { IsBackground = true, Name = "fake-acceptor" };
        _thread.Start();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    public int OrdersReceived { get; private set; }

    public bool ResetSeqNumRequested { get; private set; }

    public bool LogoutReceived { get; private set; }

    public int InboundSequenceErrors { get; private set; }

    public void Dispose()
    {
        _listener.Stop();
        _thread.Join(TimeSpan.FromSeconds(10));
    }

    private void Serve()
    {
        try
        {
            using Socket socket = _listener.AcceptSocket();
            socket.NoDelay = true;
            var framer = new FixFramer();
            var message = new FixMessage();
            byte[] buffer = new byte[1 << 20];
            byte[] output = new byte[1 << 20];
            int start = 0;
            int end = 0;
            int expected = 1;
            while (true)
            {
                int read = socket.Receive(buffer, end, buffer.Length - end, SocketFlags.None);
                if (read == 0)
                {
                    return;
                }

                end += read;
                int outLength = 0;
                bool close = false;
                var pending = new ReadOnlySequence<byte>(buffer, start, end - start);
                while (framer.TryReadFrame(pending, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out _, out _) == FrameResult.Complete)
                {
                    message.Parse(frame);
                    message.ReadMsgSeqNum(out int seq);
                    InboundSequenceErrors += seq == expected ? 0 : 1;
                    expected = seq + 1;
                    outLength += Answer(message, output.AsSpan(outLength), ref close);
                    pending = pending.Slice(consumed);
                }

                socket.Send(output, 0, outLength, SocketFlags.None);
                if (close)
                {
                    return;
                }

                start = end - (int)pending.Length;
                pending.CopyTo(buffer);
                end -= start;
                start = 0;
            }
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
            // Listener stopped (before a connection came, Accept throws ObjectDisposedException) or client gone: the
            // test's assertions report what happened. Left uncaught on this thread, it would end the test host.
        }
    }

    private int Answer(FixMessage message, Span<byte> destination, ref bool close)
    {
        var w = new FixMessageWriter(destination);
        switch (message.MsgTypeKind)
        {
            case FixMsgType.Logon:
                ResetSeqNumRequested = message.TryGetBool(FixTags.ResetSeqNumFlag, out bool reset) && reset;
                w.Begin("A"u8, Header());
                w.AddInt(FixTags.EncryptMethod, 0);
                w.AddInt(FixTags.HeartBtInt, 30);
                return w.Finish();
            case FixMsgType.NewOrderSingle:
                OrdersReceived++;
                message.TryGetChar(FixTags.TimeInForce, out byte tif);
                byte execType = tif == (byte)'3' ? (byte)'F' : (byte)'0';
                w.Begin("8"u8, Header());
                w.AddInt(FixTags.OrderID, OrdersReceived);
                w.AddInt(FixTags.ExecID, OrdersReceived);
                w.AddChar(FixTags.ExecType, execType);
                w.AddChar(FixTags.OrdStatus, execType == (byte)'F' ? (byte)'2' : (byte)'0');
                w.AddSpan(FixTags.ClOrdID, message.GetSpan(FixTags.ClOrdID));
                if (_stamp)
                {
                    long now = System.Diagnostics.Stopwatch.GetTimestamp();
                    w.AddInt(7001, now);
                    w.AddInt(7002, now + 1);
                    w.AddInt(7003, now + 1);
                    w.AddInt(7004, now + 2);
                }

                return w.Finish();
            case FixMsgType.Logout:
                LogoutReceived = true;
                close = true;
                w.Begin("5"u8, Header());
                return w.Finish();
            default:
                return 0;
        }
    }

    private FixHeader Header() => new("EXCH"u8, "LOADGEN"u8, _seq++, (DateTime.UtcNow.Ticks - DateTime.UnixEpoch.Ticks) * 100);
}
