using BenchmarkDotNet.Attributes;
using Exchange.Host.Pipeline;

namespace Exchange.Benchmarks.Pipeline;

/// <summary>
/// Publish-to-consume throughput of <see cref="SequenceRing{T}"/>: the benchmark thread publishes
/// <see cref="EventsPerInvoke"/> events, one consumer thread (Yielding, unpinned) consumes them, and an invocation
/// ends when the consumer has processed the last one. Reported time is per event (OperationsPerInvoke).
/// On the shared 2-core machine both threads compete for cores: read the figures as relative, not absolute.
/// </summary>
[MemoryDiagnoser]
public class RingBenchmarks
{
    private const int EventsPerInvoke = 100_000;

    private SequenceRing<RingEvent> _ring = null!;
    private EventProcessor _consumer = null!;

    [Params(ProducerKind.Single, ProducerKind.Multi)]
    public ProducerKind Producer { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _ring = new SequenceRing<RingEvent>(16 * 1024, Producer == ProducerKind.Multi ? ProducerMode.Multi : ProducerMode.Single);
        _consumer = _ring.AddProcessor(default(SummingHandler), WaitStrategyKind.Yielding, "bench-consumer");
        _ring.Start();
    }

    [GlobalCleanup]
    public void Cleanup() => _ring.DrainAndStop(TimeSpan.FromSeconds(10));

    [Benchmark(OperationsPerInvoke = EventsPerInvoke)]
    public long PublishAndConsume()
    {
        SequenceRing<RingEvent> ring = _ring;
        long last = -1;
        for (int i = 0; i < EventsPerInvoke; i++)
        {
            ref RingEvent slot = ref ring.Claim(out last);
            slot.Value = i;
            ring.Publish(last);
        }

        var spinner = default(SpinWait);
        while (_consumer.Sequence.Value < last)
        {
            spinner.SpinOnce(sleep1Threshold: -1);
        }

        return last;
    }

    /// <summary>Which claim path the ring uses.</summary>
    public enum ProducerKind
    {
        Single,
        Multi,
    }

    internal struct RingEvent
    {
        public long Value;
        public long Padding1;
        public long Padding2;
        public long Padding3;
    }

    internal struct SummingHandler : IEventHandler<RingEvent>
    {
        private long _sum;

        public void OnEvent(ref RingEvent evt, long sequence, bool endOfBatch) => _sum += evt.Value;
    }
}
