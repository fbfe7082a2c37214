using Exchange.Host.Pipeline;

namespace Exchange.Host.Tests.Pipeline;

/// <summary>A ring slot for tests: who produced it, that producer's running number, and stamps left by consumers.</summary>
internal struct TestEvent
{
    public int Producer;
    public long Value;
    public long FirstStamp;
    public long SecondStamp;
}

/// <summary>
/// Checks every event arrives once and in each producer's order (values 0, 1, 2, ... per producer), and that the
/// slot holds what was published for its sequence (Value check fails if a producer overwrote an unconsumed slot).
/// </summary>
internal struct OrderCheckingHandler : IEventHandler<TestEvent>
{
    private readonly long[] _nextExpected;
    private readonly int _spinPerEvent;

    public OrderCheckingHandler(int producers, int spinPerEvent = 0)
    {
        _nextExpected = new long[producers];
        _spinPerEvent = spinPerEvent;
    }

    public long Count { get; private set; }

    public long Violations { get; private set; }

    public long LastSequence { get; private set; }

    public int Batches { get; private set; }

    public readonly long NextExpected(int producer) => _nextExpected[producer];

    public void OnEvent(ref TestEvent evt, long sequence, bool endOfBatch)
    {
        if (evt.Producer < 0 || evt.Producer >= _nextExpected.Length || evt.Value != _nextExpected[evt.Producer])
        {
            Violations++;
        }
        else
        {
            _nextExpected[evt.Producer]++;
        }

        if (sequence != LastSequence + 1 && Count != 0)
        {
            Violations++;
        }

        if (_spinPerEvent > 0)
        {
            Thread.SpinWait(_spinPerEvent);
        }

        LastSequence = sequence;
        Count++;
        if (endOfBatch)
        {
            Batches++;
        }
    }
}

/// <summary>A stage that stamps the slot with its sequence (FirstStamp or SecondStamp), like journaller and matcher.</summary>
internal struct StampingHandler : IEventHandler<TestEvent>
{
    private readonly bool _second;

    public StampingHandler(bool second) => _second = second;

    public long Count { get; private set; }

    public void OnEvent(ref TestEvent evt, long sequence, bool endOfBatch)
    {
        if (_second)
        {
            evt.SecondStamp = sequence + 1;
        }
        else
        {
            evt.FirstStamp = sequence + 1;
        }

        Count++;
    }
}

/// <summary>
/// The sender-like stage gated on two others: checks both have stamped the slot and both sequences have reached it.
/// </summary>
internal struct GatedCheckingHandler : IEventHandler<TestEvent>
{
    private readonly Sequence _first;
    private readonly Sequence _second;

    public GatedCheckingHandler(Sequence first, Sequence second)
    {
        _first = first;
        _second = second;
    }

    public long Count { get; private set; }

    public long Violations { get; private set; }

    public void OnEvent(ref TestEvent evt, long sequence, bool endOfBatch)
    {
        if (evt.FirstStamp != sequence + 1 || evt.SecondStamp != sequence + 1
            || _first.Value < sequence || _second.Value < sequence)
        {
            Violations++;
        }

        Count++;
    }
}

/// <summary>Blocks on a gate before its first event, to hold the ring full; counts events.</summary>
internal struct GateHandler : IEventHandler<TestEvent>
{
    private readonly ManualResetEventSlim _gate;

    public GateHandler(ManualResetEventSlim gate) => _gate = gate;

    public long Count { get; private set; }

    public void OnEvent(ref TestEvent evt, long sequence, bool endOfBatch)
    {
        _gate.Wait();
        Count++;
    }
}

/// <summary>Throws on the given sequence (a handler bug).</summary>
internal struct ThrowingHandler : IEventHandler<TestEvent>
{
    private readonly long _throwAt;

    public ThrowingHandler(long throwAt) => _throwAt = throwAt;

    public readonly void OnEvent(ref TestEvent evt, long sequence, bool endOfBatch)
    {
        if (sequence == _throwAt)
        {
            throw new InvalidOperationException("handler bug at " + sequence);
        }
    }
}

/// <summary>Measures the processor thread's own allocations between two sequences.</summary>
internal struct AllocationMeasuringHandler : IEventHandler<TestEvent>
{
    private readonly long _from;
    private readonly long _to;
    private long _startBytes;

    public AllocationMeasuringHandler(long from, long to)
    {
        _from = from;
        _to = to;
        AllocatedBytes = -1;
    }

    public long AllocatedBytes { get; private set; }

    public void OnEvent(ref TestEvent evt, long sequence, bool endOfBatch)
    {
        if (sequence == _from)
        {
            _startBytes = GC.GetAllocatedBytesForCurrentThread();
        }
        else if (sequence == _to)
        {
            AllocatedBytes = GC.GetAllocatedBytesForCurrentThread() - _startBytes;
        }
    }
}

internal static class RingTestHelpers
{
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    /// <summary>Publishes <paramref name="count"/> events from one producer id (values 0..count-1).</summary>
    public static void Produce(SequenceRing<TestEvent> ring, int producer, long count)
    {
        for (long value = 0; value < count; value++)
        {
            ref TestEvent slot = ref ring.Claim(out long sequence);
            slot.Producer = producer;
            slot.Value = value;
            slot.FirstStamp = 0;
            slot.SecondStamp = 0;
            ring.Publish(sequence);
        }
    }
}
