using System.Buffers;
using System.Diagnostics;
using System.Net.Sockets;
using System.Text;
using Exchange.Fix.Codec;
using Exchange.Fix.Gateway;
using Exchange.LoadClient.Measurement;
using Exchange.LoadClient.Orders;

namespace Exchange.LoadClient.Session;

/// <summary>
/// Reads the venue's messages: socket Receive into one large buffer, <see cref="FixFramer"/> for framing,
/// <see cref="FixMessage"/> for fields; answers admin messages through the session and hands ExecutionReports to the
/// <see cref="OrderTracker"/>. Either a dedicated reader thread calls <see cref="ReadOnce"/> in a loop, or (sync mode)
/// the sending thread calls it until its reply arrives, which avoids a thread hand-off per round trip.
/// </summary>
/// <remarks>
/// Blocking mode: Receive blocks in the kernel until bytes arrive. Busy-poll mode (non-blocking socket):
/// <see cref="ReadOnce"/> returns 0 at once when nothing is there and the caller spins, which burns a core but
/// avoids the wake-up latency. The receive timestamp (Stopwatch, taken when Receive returns) is shared by every
/// message in that read. Not thread-safe: one reading thread at a time. No allocation per message.
/// </remarks>
internal sealed class ReplyReader
{
    public const int BufferSize = 4 << 20;

    private readonly FixClientSession _session;
    private readonly OrderTracker _tracker;
    private readonly ClOrdIdCodec _clOrdIds;
    private readonly byte[] _buffer = new byte[BufferSize];
    private readonly FixFramer _framer = new();
    private readonly FixMessage _message = new();
    private int _start;
    private int _end;
    private int _expectedSeqNum = 1;

    public ReplyReader(FixClientSession session, OrderTracker tracker, ClOrdIdCodec clOrdIds)
    {
        _session = session ?? throw new ArgumentNullException(nameof(session));
        _tracker = tracker ?? throw new ArgumentNullException(nameof(tracker));
        _clOrdIds = clOrdIds ?? throw new ArgumentNullException(nameof(clOrdIds));
    }

    public long MessagesRead { get; private set; }

    public long GarbledFrames { get; private set; }

    /// <summary>Inbound MsgSeqNum not the expected one (the client does not request resends; it reports them).</summary>
    public long SequenceGaps { get; private set; }

    public bool Closed { get; private set; }

    /// <summary>One Receive and every complete message in the buffer: bytes read, 0 when a non-blocking read found
    /// nothing, -1 when the connection is closed.</summary>
    public int ReadOnce()
    {
        if (Closed)
        {
            return -1;
        }

        int read = SocketCalls.Receive(_session.Socket, _buffer.AsSpan(_end), out SocketError error);
        if (error is SocketError.WouldBlock or SocketError.TimedOut)
        {
            // Non-blocking: nothing there yet. Blocking: the receive timeout passed, so the caller can check its deadline.
            return 0;
        }

        if (error != SocketError.Success || read == 0)
        {
            Closed = true;
            return -1;
        }

        long receivedTicks = Stopwatch.GetTimestamp();
        _end += read;
        Process(receivedTicks);
        return read;
    }

    /// <summary>Frames and handles buffered bytes (also used by tests with <see cref="Append"/>).</summary>
    internal void Process(long receivedTicks)
    {
        var pending = new ReadOnlySequence<byte>(_buffer, _start, _end - _start);
        while (!pending.IsEmpty)
        {
            FrameResult result = _framer.TryReadFrame(pending, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out _, out _);
            if (result == FrameResult.Incomplete)
            {
                break;
            }

            if (result == FrameResult.Complete)
            {
                Handle(frame, receivedTicks);
            }
            else
            {
                GarbledFrames++;
            }

            pending = pending.Slice(consumed);
        }

        _start = _end - (int)pending.Length;
        if (_start == _end)
        {
            _start = _end = 0;
        }
        else if (_end > _buffer.Length - _framer.MaxMessageSize)
        {
            // Keep room for at least one whole message after the partial one.
            _buffer.AsSpan(_start, _end - _start).CopyTo(_buffer);
            _end -= _start;
            _start = 0;
        }
    }

    /// <summary>Test hook: adds bytes as if received.</summary>
    internal void Append(ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(_buffer.AsSpan(_end));
        _end += bytes.Length;
    }

    private void Handle(ReadOnlySpan<byte> frame, long receivedTicks)
    {
        FixMessage m = _message;
        m.Parse(frame);
        MessagesRead++;
        if (m.ReadMsgSeqNum(out int seqNum) == FieldStatus.Ok)
        {
            if (seqNum != _expectedSeqNum && m.MsgTypeKind != FixMsgType.SequenceReset)
            {
                SequenceGaps++;
            }

            _expectedSeqNum = seqNum + 1;
        }

        switch (m.MsgTypeKind)
        {
            case FixMsgType.ExecutionReport:
                OnExecutionReport(m, receivedTicks);
                break;
            case FixMsgType.TestRequest:
                _session.SendHeartbeat(m.TryGetSpan(FixTags.TestReqID, out ReadOnlySpan<byte> id) ? id : default);
                break;
            case FixMsgType.ResendRequest:
                if (m.TryGetInt(FixTags.BeginSeqNo, out int begin))
                {
                    _session.SendGapFill(begin);
                }

                break;
            case FixMsgType.SequenceReset:
                if (m.TryGetInt(FixTags.NewSeqNo, out int newSeqNo))
                {
                    _expectedSeqNum = newSeqNo;
                }

                break;
            case FixMsgType.Reject:
                _tracker.OnSessionReject();
                _session.LastSessionText ??= TextOf(m);
                break;
            case FixMsgType.BusinessMessageReject:
                _tracker.OnBusinessReject();
                _session.LastSessionText ??= TextOf(m);
                break;
            case FixMsgType.Logon:
                _session.MarkLoggedOn();
                break;
            case FixMsgType.Logout:
                _session.LastSessionText = TextOf(m);
                _session.MarkLogoutReceived();
                break;
            default:
                // Heartbeats, market data, cancel rejects: nothing to do for the load flow.
                break;
        }
    }

    private void OnExecutionReport(FixMessage m, long receivedTicks)
    {
        if (!m.TryGetSpan(FixTags.ClOrdID, out ReadOnlySpan<byte> clOrdId)
            || !_clOrdIds.TryRead(clOrdId, out OrderKind kind, out long number)
            || !m.TryGetChar(FixTags.ExecType, out byte execType))
        {
            _tracker.OnUnmatched();
            return;
        }

        StageTimes stages = default;
        m.TryGetLong(StageBreakdown.ReceivedTag, out stages.Received);
        m.TryGetLong(StageBreakdown.JournaledTag, out stages.Journaled);
        m.TryGetLong(StageBreakdown.MatchedTag, out stages.Matched);
        m.TryGetLong(StageBreakdown.SentTag, out stages.Sent);
        _tracker.OnExecutionReport(kind, number, execType, receivedTicks, stages);
    }

    private static string? TextOf(FixMessage m) => m.TryGetSpan(FixTags.Text, out ReadOnlySpan<byte> text) ? Encoding.ASCII.GetString(text) : null;
}
