using System.Buffers;
using System.Text;
using BenchmarkDotNet.Attributes;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Mapping;

namespace Exchange.Benchmarks.Fix;

/// <summary>
/// The stages of <see cref="FixCodecBenchmarks.NewOrderSingleToCommand"/> one at a time (frame, parse, validate,
/// map), on the same NewOrderSingle, so a change can be attributed to the stage it speeds up. The pipeline runs
/// parse and validate as one call (<see cref="ParseAndValidate"/>); <see cref="Validate"/> is its validation part
/// alone, in steady state (the layout's plan is known, so only the values are checked).
/// </summary>
[MemoryDiagnoser]
[MinColumn]
[MedianColumn]
public class FixInboundStageBenchmarks
{
    private readonly FixFramer _framer = new();
    private readonly FixMessage _message = new();
    private FixDictionary _dictionary = null!;
    private InstrumentDirectory _instruments = null!;
    private ReadOnlySequence<byte> _newOrder;
    private byte[] _frame = [];

    [GlobalSetup]
    public void Setup()
    {
        _dictionary = FixDictionary.Fix44;
        _instruments = new InstrumentDirectory([new Instrument(0, "AAPL", 4, 1, 1, 1, 100_000_000)]);
        _frame = FixCodecBenchmarks.Wrap(FixCodecBenchmarks.NewOrderBody);
        _newOrder = new ReadOnlySequence<byte>(_frame);
        if (Frame() != _frame.Length || !ParseAndValidate() || !Parse() || Validate() || Map() != 1_434_200)
        {
            throw new InvalidOperationException("Benchmark input does not pass every stage.");
        }
    }

    /// <summary>Framing only: header checks, BodyLength, CheckSum; returns the frame length.</summary>
    [Benchmark]
    public int Frame() =>
        _framer.TryReadFrame(_newOrder, out ReadOnlySpan<byte> frame, out _, out _, out _) == FrameResult.Complete ? frame.Length : -1;

    /// <summary>Copy the frame into the message and index its fields.</summary>
    [Benchmark]
    public bool Parse() => _message.Parse(_frame);

    /// <summary>Copy, index and validate (the pipeline's single call).</summary>
    [Benchmark]
    public bool ParseAndValidate() => _message.Parse(_frame, _dictionary);

    /// <summary>
    /// Dictionary validation of the already parsed message; returns true on an error. Calls the validator itself:
    /// <see cref="FixDictionary.Validate"/> would return the verdict it cached on the message after the first call.
    /// </summary>
    [Benchmark]
    public bool Validate() => _dictionary.ValidateFields(_message).IsError;

    /// <summary>Mapping of the already parsed message to a NewOrder command; returns the price.</summary>
    [Benchmark]
    public long Map() => NewOrderSingleReader.Read(_message, _instruments, 1, 0, out Command command).IsOk ? command.Price : -1;
}
