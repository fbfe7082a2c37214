using System.Buffers;
using System.Text;
using BenchmarkDotNet.Attributes;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Mapping;

namespace Exchange.Benchmarks.Fix;

/// <summary>
/// The gateway's per-message codec cost: an inbound NewOrderSingle framed, parsed, validated against the FIX 4.4
/// dictionary and mapped to a <see cref="Command"/>; and an outbound fill encoded as an ExecutionReport.
/// Targets: at most 100 ns and 0 B each.
/// </summary>
[MemoryDiagnoser]
[MinColumn]
[MedianColumn]
public class FixCodecBenchmarks
{
    internal const string NewOrderBody =
        "35=D\u000149=CLIENT1\u000156=VENUE\u000134=7\u000152=20240315-14:30:00.123\u000111=ORD-1\u000155=AAPL\u000154=1\u0001" +
        "60=20240315-14:30:00.120\u000138=100\u000140=2\u000144=143.42\u000159=0\u0001";

    private readonly FixFramer _framer = new();
    private readonly FixMessage _message = new();
    private readonly NewOrderLayout _layout = new();
    private readonly byte[] _output = new byte[FixMessageWriter.TypicalMaxLength];
    private readonly byte[] _sender = "VENUE"u8.ToArray();
    private readonly byte[] _target = "CLIENT1"u8.ToArray();
    private FixDictionary _dictionary = null!;
    private InstrumentDirectory _instruments = null!;
    private ReadOnlySequence<byte> _newOrder;
    private byte[] _newOrderBytes = [];
    private EngineEvent _fill;
    private int _seq;

    [GlobalSetup]
    public void Setup()
    {
        _dictionary = FixDictionary.Fix44;
        _instruments = new InstrumentDirectory([new Instrument(0, "AAPL", 4, 1, 1, 1, 100_000_000)]);
        _newOrderBytes = Wrap(NewOrderBody);
        _newOrder = new ReadOnlySequence<byte>(_newOrderBytes);
        _fill = ReferenceFill.Create(1_710_513_000_123_000_000);
        // The fused row last: it needs the layout plan the usual rows' parse of the same message leaves.
        if (NewOrderSingleToCommand() != 1_434_200 || NewOrderSingleToCommandFromSpan() != 1_434_200 || ExecutionReportEncode() == 0 ||
            NewOrderSingleFusedToCommand() != 1_434_200)
        {
            throw new InvalidOperationException("Benchmark inputs do not round-trip.");
        }
    }

    /// <summary>Frame + parse + dictionary validation + map to a NewOrder command; returns the price to keep it live.</summary>
    [Benchmark]
    public long NewOrderSingleToCommand()
    {
        if (_framer.TryReadFrame(_newOrder, out ReadOnlySpan<byte> frame, out _, out _, out _) != FrameResult.Complete ||
            !_message.Parse(frame, _dictionary) ||
            !NewOrderSingleReader.Read(_message, _instruments, 1, 0, out Command command).IsOk)
        {
            return -1;
        }

        return command.Price;
    }

    /// <summary>
    /// <see cref="NewOrderSingleToCommand"/> from a contiguous receive buffer, as the Inline venue's polling thread frames
    /// its socket's bytes (the framer's span overload); the Threaded venue reads a pipe's sequence, as above.
    /// </summary>
    [Benchmark]
    public long NewOrderSingleToCommandFromSpan()
    {
        if (_framer.TryReadFrame(_newOrderBytes, out ReadOnlySpan<byte> frame, out _, out _) != FrameResult.Complete ||
            !_message.Parse(frame, _dictionary) ||
            !NewOrderSingleReader.Read(_message, _instruments, 1, 0, out Command command).IsOk)
        {
            return -1;
        }

        return command.Price;
    }

    /// <summary>
    /// <see cref="NewOrderSingleToCommandFromSpan"/> the way the gateway reads a logged-on session's order of the
    /// connection's last layout: the guided parse, then the fused read (checks, header values and mapping in one pass).
    /// </summary>
    [Benchmark]
    public long NewOrderSingleFusedToCommand()
    {
        Command command = default;
        if (_framer.TryReadFrame(_newOrderBytes, out ReadOnlySpan<byte> frame, out _, out _) != FrameResult.Complete ||
            _message.ParseDeferringGuidedChecks(frame, _dictionary) is not LayoutPlan plan ||
            !_layout.Describe(plan) ||
            !FusedNewOrderReader.TryRead(_message, _layout, _instruments, 1, 0, ref command, out _, out _))
        {
            return -1;
        }

        _message.AcceptGuided(_dictionary);
        return command.Price;
    }

    /// <summary>A partial fill encoded as a complete ExecutionReport (header, body, BodyLength, CheckSum).</summary>
    [Benchmark]
    public int ExecutionReportEncode() =>
        ExecutionReportEncoder.Encode(_output, new FixHeader(_sender, _target, ++_seq, _fill.Timestamp), _fill, "AAPL"u8, 4);

    internal static byte[] Wrap(string body)
    {
        string head = $"8=FIX.4.4\u00019={body.Length}\u0001";
        byte[] message = Encoding.ASCII.GetBytes(head + body);
        int sum = 0;
        foreach (byte b in message)
        {
            sum += b;
        }

        return Encoding.ASCII.GetBytes(head + body + $"10={sum % 256:D3}\u0001");
    }
}
