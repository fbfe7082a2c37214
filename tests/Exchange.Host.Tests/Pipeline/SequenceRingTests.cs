using Exchange.Host.Pipeline;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Host.Tests.Pipeline;

[Collection(ZeroAllocationCollection.Name)]
public class SequenceRingTests
{
    private static readonly TimeSpan Timeout = RingTestHelpers.Timeout;

    [Fact]
    public void MultiProducer_TwoProducers_EveryEventSeenOnceInPerProducerOrder()
    {
        const int perProducer = 200_000;
        var ring = new SequenceRing<TestEvent>(1024, ProducerMode.Multi);
        var consumer = ring.AddProcessor(new OrderCheckingHandler(2), WaitStrategyKind.Yielding, "test-consumer");
        ring.Start();

        var producers = new[]
        {
            new Thread(() => RingTestHelpers.Produce(ring, 0, perProducer)) { IsBackground = true },
            new Thread(() => RingTestHelpers.Produce(ring, 1, perProducer)) { IsBackground = true },
        };
        Array.ForEach(producers, static t => t.Start());
        Array.ForEach(producers, static t => Assert.True(t.Join(Timeout)));

        Assert.True(ring.DrainAndStop(Timeout));
        ref OrderCheckingHandler handler = ref consumer.Handler;
        Assert.Equal(0, handler.Violations);
        Assert.Equal(2 * perProducer, handler.Count);
        Assert.Equal(perProducer, handler.NextExpected(0));
        Assert.Equal(perProducer, handler.NextExpected(1));
        Assert.Equal((2 * perProducer) - 1, consumer.Sequence.Value);
        Assert.Null(consumer.Fault);
    }

    [Fact]
    public void MultiProducer_LaterPublishedSlotWaitsForAnEarlierClaimedOne()
    {
        var ring = new SequenceRing<TestEvent>(16, ProducerMode.Multi);
        var consumer = ring.AddProcessor(new OrderCheckingHandler(1), WaitStrategyKind.Blocking, "test-consumer");
        ring.Start();

        // Three claims as three producers would make them; the middle one is published last.
        ref TestEvent first = ref ring.Claim(out long firstSequence);
        ref TestEvent second = ref ring.Claim(out long secondSequence);
        ref TestEvent third = ref ring.Claim(out long thirdSequence);
        third.Value = 2;
        ring.Publish(thirdSequence);
        first.Value = 0;
        ring.Publish(firstSequence);

        // The consumer may take the first slot but must not pass the unpublished second one to reach the third.
        Assert.True(SpinWait.SpinUntil(() => consumer.Sequence.Value == 0, Timeout));
        Thread.Sleep(50);
        Assert.Equal(0, consumer.Sequence.Value);

        second.Value = 1;
        ring.Publish(secondSequence);

        Assert.True(ring.DrainAndStop(Timeout));
        Assert.Equal(0, consumer.Handler.Violations);
        Assert.Equal(3, consumer.Handler.Count);
    }

    [Fact]
    public void SingleProducer_EveryEventSeenOnceInOrder()
    {
        const int count = 100_000;
        var ring = new SequenceRing<TestEvent>(256, ProducerMode.Single);
        var consumer = ring.AddProcessor(new OrderCheckingHandler(1), WaitStrategyKind.Yielding, "test-consumer");
        ring.Start();

        RingTestHelpers.Produce(ring, 0, count);

        Assert.True(ring.DrainAndStop(Timeout));
        Assert.Equal(0, consumer.Handler.Violations);
        Assert.Equal(count, consumer.Handler.Count);
        Assert.Equal(count - 1, ring.Cursor.Value);
    }

    [Theory]
    [InlineData("Single")]
    [InlineData("Multi")]
    public void GatedChain_ThirdConsumerNeverRunsAheadOfEitherDependency(string modeName)
    {
        ProducerMode mode = Enum.Parse<ProducerMode>(modeName);
        const int count = 100_000;
        var ring = new SequenceRing<TestEvent>(512, mode);
        var journal = ring.AddProcessor(new StampingHandler(second: false), WaitStrategyKind.Yielding, "test-journal");
        var matcher = ring.AddProcessor(new StampingHandler(second: true), WaitStrategyKind.Yielding, "test-matcher");
        var sender = ring.AddProcessor(
            new GatedCheckingHandler(journal.Sequence, matcher.Sequence), WaitStrategyKind.Blocking, "test-sender", null, journal, matcher);
        ring.Start();

        RingTestHelpers.Produce(ring, 0, count);

        Assert.True(ring.DrainAndStop(Timeout));
        Assert.Equal(count, journal.Handler.Count);
        Assert.Equal(count, matcher.Handler.Count);
        Assert.Equal(count, sender.Handler.Count);
        Assert.Equal(0, sender.Handler.Violations);
    }

    [Theory]
    [InlineData("Single", 1)]
    [InlineData("Multi", 2)]
    public void WrapProtection_ProducersNeverOverwriteAnUnconsumedSlot(string modeName, int producerCount)
    {
        ProducerMode mode = Enum.Parse<ProducerMode>(modeName);
        const int perProducer = 20_000;
        var ring = new SequenceRing<TestEvent>(8, mode);

        // A slow consumer: if a producer lapped it, the slot would hold a later value and the order check would fail.
        var consumer = ring.AddProcessor(new OrderCheckingHandler(producerCount, spinPerEvent: 20), WaitStrategyKind.Yielding, "test-slow");
        ring.Start();

        var producers = Enumerable.Range(0, producerCount)
            .Select(p => new Thread(() => RingTestHelpers.Produce(ring, p, perProducer)) { IsBackground = true })
            .ToArray();
        Array.ForEach(producers, static t => t.Start());
        Array.ForEach(producers, static t => Assert.True(t.Join(Timeout)));

        Assert.True(ring.DrainAndStop(Timeout));
        Assert.Equal(0, consumer.Handler.Violations);
        Assert.Equal(producerCount * perProducer, consumer.Handler.Count);
    }

    [Theory]
    [InlineData("Single")]
    [InlineData("Multi")]
    public void TryClaim_FailsWhenRingIsFullAndSucceedsOnceConsumed(string modeName)
    {
        ProducerMode mode = Enum.Parse<ProducerMode>(modeName);
        using var gate = new ManualResetEventSlim(false);
        var ring = new SequenceRing<TestEvent>(4, mode);
        var consumer = ring.AddProcessor(new GateHandler(gate), WaitStrategyKind.Blocking, "test-gated");
        ring.Start();

        for (int i = 0; i < 4; i++)
        {
            Assert.True(ring.TryClaim(out long sequence));
            Assert.Equal(i, sequence);
            ring.Publish(sequence);
        }

        Assert.False(ring.TryClaim(out _));
        Assert.Equal(4, ring.Occupancy);

        gate.Set();
        Assert.True(SpinWait.SpinUntil(() => consumer.Sequence.Value == 3, Timeout));
        Assert.True(ring.TryClaim(out long next));
        Assert.Equal(4, next);
        ring.Publish(next);

        Assert.True(ring.DrainAndStop(Timeout));
        Assert.Equal(5, consumer.Handler.Count);
        Assert.Equal(0, ring.Occupancy);
    }

    [Theory]
    [InlineData("Blocking")]
    [InlineData("Sleeping")]
    public void DrainAndStop_ProcessesEverythingPublishedBeforeStopping(string kindName)
    {
        WaitStrategyKind kind = WaitStrategies.Parse(kindName, "test");
        const int count = 10_000;
        var ring = new SequenceRing<TestEvent>(64, ProducerMode.Multi);
        var first = ring.AddProcessor(new OrderCheckingHandler(1), kind, "test-first");
        var second = ring.AddProcessor(new OrderCheckingHandler(1, spinPerEvent: 10), kind, "test-second", null, first);
        ring.Start();

        RingTestHelpers.Produce(ring, 0, count);

        Assert.True(ring.DrainAndStop(Timeout));
        Assert.False(first.IsRunning);
        Assert.False(second.IsRunning);
        Assert.Equal(count, first.Handler.Count);
        Assert.Equal(count, second.Handler.Count);
        Assert.Equal(0, second.Handler.Violations);
        Assert.Equal(count - 1, second.Sequence.Value);
    }

    [Fact]
    public void Halt_StopsAnIdleProcessorWithoutFurtherEvents()
    {
        var ring = new SequenceRing<TestEvent>(64, ProducerMode.Single);
        var consumer = ring.AddProcessor(new OrderCheckingHandler(1), WaitStrategyKind.Blocking, "test-halt");
        ring.Start();
        RingTestHelpers.Produce(ring, 0, 10);
        Assert.True(SpinWait.SpinUntil(() => consumer.Sequence.Value == 9, Timeout));

        Assert.True(ring.Halt(Timeout));
        Assert.False(consumer.IsRunning);

        // Published after the halt: nobody consumes it.
        RingTestHelpers.Produce(ring, 0, 1);
        Assert.Equal(10, consumer.Handler.Count);
        Assert.Equal(9, consumer.Sequence.Value);
    }

    [Theory]
    [InlineData("BusySpin", 2_000)]
    [InlineData("Yielding", 20_000)]
    [InlineData("Sleeping", 20_000)]
    [InlineData("Blocking", 20_000)]
    public void EachWaitStrategy_DeliversEveryEventThroughAChain(string kindName, int count)
    {
        WaitStrategyKind kind = WaitStrategies.Parse(kindName, "test");
        var ring = new SequenceRing<TestEvent>(128, ProducerMode.Multi);
        var first = ring.AddProcessor(new StampingHandler(second: false), kind, "test-a");
        var second = ring.AddProcessor(new StampingHandler(second: true), kind, "test-b");
        var last = ring.AddProcessor(new GatedCheckingHandler(first.Sequence, second.Sequence), kind, "test-c", null, first, second);
        ring.Start();

        RingTestHelpers.Produce(ring, 0, count);

        Assert.True(ring.DrainAndStop(Timeout));
        Assert.Equal(count, last.Handler.Count);
        Assert.Equal(0, last.Handler.Violations);
    }

    [Fact]
    public void HandlerException_IsRecordedAndStopsOnlyThatProcessor()
    {
        var ring = new SequenceRing<TestEvent>(16, ProducerMode.Single);
        Exception? reported = null;
        var faulty = ring.AddProcessor(new ThrowingHandler(throwAt: 3), WaitStrategyKind.Blocking, "test-faulty");
        faulty.FaultHandler = (_, exception) => reported = exception;
        ring.Start();

        RingTestHelpers.Produce(ring, 0, 5);

        Assert.True(faulty.Join(Timeout));
        Assert.IsType<InvalidOperationException>(faulty.Fault);
        Assert.Same(faulty.Fault, reported);
        Assert.True(faulty.Sequence.Value < 3);
    }

    [Theory]
    [InlineData("Single")]
    [InlineData("Multi")]
    public void Abort_ReleasesAProducerWaitingOnARingAFaultedProcessorFilled_AndRefusesLaterClaims(string modeName)
    {
        var ring = new SequenceRing<TestEvent>(16, Enum.Parse<ProducerMode>(modeName));
        var faulty = ring.AddProcessor(new ThrowingHandler(throwAt: 0), WaitStrategyKind.Blocking, "test-faulty");
        faulty.FaultHandler = (_, _) => ring.Abort(); // as the venue does on a processor fault
        ring.Start();

        // The processor dies on the first slot, so 16 claims fill the ring and the 17th waits for room that never comes.
        bool? claimed = null;
        var producer = new Thread(() =>
        {
            for (int i = 0; i < 17; i++)
            {
                if (!ring.TryClaimWaiting(out long sequence))
                {
                    claimed = false;
                    return;
                }

                ring.Publish(sequence);
            }

            claimed = true;
        }) { IsBackground = true };
        producer.Start();

        Assert.True(producer.Join(Timeout), "the producer still waits on the full ring");
        Assert.False(claimed);
        Assert.False(ring.TryClaimWaiting(out _));
        Assert.Throws<InvalidOperationException>(() => ring.Claim(out _));
    }

    [Fact]
    public void SteadyState_ProduceAndConsume_AllocateNothing()
    {
        const int count = 50_000;
        var ring = new SequenceRing<TestEvent>(1024, ProducerMode.Multi);
        var consumer = ring.AddProcessor(new AllocationMeasuringHandler(from: 10_000, to: count - 1), WaitStrategyKind.Yielding, "test-alloc");
        ring.Start();

        RingTestHelpers.Produce(ring, 0, 10_000);
        long before = GC.GetAllocatedBytesForCurrentThread();
        RingTestHelpers.Produce(ring, 0, count - 10_000);
        long producerBytes = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.True(ring.DrainAndStop(Timeout));
        Assert.Equal(0, producerBytes);
        Assert.Equal(0, consumer.Handler.AllocatedBytes);
    }

    [Fact]
    public void AddProcessor_RejectsDependencyFromAnotherRing()
    {
        var ring = new SequenceRing<TestEvent>(16, ProducerMode.Single);
        var other = new SequenceRing<TestEvent>(16, ProducerMode.Single);
        var foreign = other.AddProcessor(new StampingHandler(false), WaitStrategyKind.Blocking, "test-foreign");

        Assert.Throws<ArgumentException>(() =>
            ring.AddProcessor(new StampingHandler(true), WaitStrategyKind.Blocking, "test-x", null, foreign));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(1000)]
    public void Constructor_RejectsSizesThatAreNotPowersOfTwo(int size)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new SequenceRing<TestEvent>(size, ProducerMode.Single));
    }
}
