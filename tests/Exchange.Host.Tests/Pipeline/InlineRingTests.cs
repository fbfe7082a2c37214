using Exchange.Host.Pipeline;
using Xunit;

namespace Exchange.Host.Tests.Pipeline;

/// <summary>A ring started inline: no threads; the caller runs each processor over what is available, in order.</summary>
public class InlineRingTests
{
    [Fact]
    public void RunAvailable_ProcessesWhatIsPublished_InOrder_AndADependentStageOnlyWhatItsDependencyFinished()
    {
        var ring = new SequenceRing<TestEvent>(64, ProducerMode.Single);
        var first = ring.AddProcessor(new StampingHandler(second: false), WaitStrategyKind.Blocking, "first");
        var second = ring.AddProcessor(new StampingHandler(second: true), WaitStrategyKind.Blocking, "second", null, first);
        var checker = ring.AddProcessor(new GatedCheckingHandler(first.Sequence, second.Sequence), WaitStrategyKind.Blocking, "checker", null, first, second);
        ring.StartInline();
        Assert.False(first.IsRunning);

        Publish(ring, 0, 10);
        Assert.Equal(0, second.RunAvailable()); // its dependency has done nothing yet
        Assert.Equal(0, checker.RunAvailable());
        Assert.Equal(10, first.RunAvailable());
        Assert.Equal(0, first.RunAvailable()); // nothing new
        Assert.Equal(10, second.RunAvailable());
        Assert.Equal(10, checker.RunAvailable());

        Publish(ring, 10, 5);
        Assert.Equal(5, first.RunAvailable());
        Assert.Equal(5, second.RunAvailable());
        Assert.Equal(5, checker.RunAvailable());

        Assert.Equal(0, checker.Handler.Violations);
        Assert.Equal(15, checker.Handler.Count);
        Assert.Equal(14, checker.Sequence.Value);
        Assert.True(ring.DrainAndStop(TimeSpan.FromSeconds(1)), "no threads to join");
    }

    [Fact]
    public void AFullRing_RefusesAClaim_UntilTheCallerRunsItsProcessors()
    {
        var ring = new SequenceRing<TestEvent>(64, ProducerMode.Single);
        var consumer = ring.AddProcessor(new OrderCheckingHandler(1), WaitStrategyKind.Blocking, "consumer");
        ring.StartInline();

        Publish(ring, 0, 64);
        Assert.False(ring.TryClaim(out _));
        Assert.Equal(64, consumer.RunAvailable());
        Assert.True(ring.TryClaim(out long sequence));
        Assert.Equal(64, sequence);
    }

    private static void Publish(SequenceRing<TestEvent> ring, long firstValue, int count)
    {
        for (long value = firstValue; value < firstValue + count; value++)
        {
            Assert.True(ring.TryClaim(out long sequence));
            ref TestEvent slot = ref ring[sequence];
            slot = new TestEvent { Producer = 0, Value = value };
            ring.Publish(sequence);
        }
    }
}
