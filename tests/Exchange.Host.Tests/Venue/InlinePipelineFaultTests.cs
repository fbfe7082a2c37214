using Exchange.Host.Pipeline;
using Exchange.Host.Tests.Pipeline;
using Exchange.Host.Venue;
using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// A handler exception in the inline pipeline is the end of it: the same slots are never run again, whoever calls next
/// (the polling loop, or a connection whose publish drains a full ring).
/// </summary>
public sealed class InlinePipelineFaultTests
{
    [Fact]
    public void After_a_handler_throws_every_later_run_throws_and_nothing_is_processed_twice()
    {
        var ring = new SequenceRing<TestEvent>(64, ProducerMode.Single);
        var counting = new CountingHandler();
        EventProcessor journaller = ring.AddProcessor(counting, WaitStrategyKind.Blocking, "journaller");
        EventProcessor matcher = ring.AddProcessor(new ThrowingHandler(throwAt: 3), WaitStrategyKind.Blocking, "matcher", null, journaller);
        EventProcessor sender = ring.AddProcessor(new CountingHandler(), WaitStrategyKind.Blocking, "sender", null, matcher);
        ring.StartInline();
        var pipeline = new InlinePipeline(journaller, matcher, sender, () => false);
        for (int i = 0; i < 5; i++)
        {
            Assert.True(ring.TryClaim(out long sequence));
            ring[sequence] = new TestEvent { Value = i };
            ring.Publish(sequence);
        }

        var first = Assert.Throws<InvalidOperationException>(() => pipeline.RunOnce());
        Assert.Equal("slot 3", first.Message);
        Assert.Same(first, pipeline.Fault);
        int journalled = ((BatchEventProcessor<TestEvent, CountingHandler>)journaller).Handler.Count;

        // Run again, as a publish into a full ring would: no handler sees a slot again.
        var again = Assert.Throws<InvalidOperationException>(() => pipeline.RunOnce());
        Assert.Same(first, again.InnerException);
        Assert.Equal(journalled, ((BatchEventProcessor<TestEvent, CountingHandler>)journaller).Handler.Count);
        Assert.Equal(0, ((BatchEventProcessor<TestEvent, ThrowingHandler>)matcher).Handler.Reruns);
    }

    private struct CountingHandler : IEventHandler<TestEvent>
    {
        public int Count { get; private set; }

        public void OnEvent(ref TestEvent evt, long sequence, bool endOfBatch) => Count++;
    }

    private struct ThrowingHandler : IEventHandler<TestEvent>
    {
        private readonly long _throwAt;
        private long _highest;

        public ThrowingHandler(long throwAt)
        {
            _throwAt = throwAt;
            _highest = -1;
        }

        /// <summary>Slots handed to this handler a second time.</summary>
        public int Reruns { get; private set; }

        public void OnEvent(ref TestEvent evt, long sequence, bool endOfBatch)
        {
            if (sequence <= _highest)
            {
                Reruns++;
            }

            _highest = Math.Max(_highest, sequence);
            if (sequence == _throwAt)
            {
                throw new InvalidOperationException($"slot {sequence}");
            }
        }
    }
}
