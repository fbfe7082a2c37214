using Exchange.Host.Pipeline;
using Xunit;

namespace Exchange.Host.Tests.Pipeline;

/// <summary>
/// A processor given idle work runs it on its own thread when it has waited the interval for nothing, with every wait
/// strategy that sleeps (the Threaded journaller's Periodic fsync after the last batch before a pause); without idle
/// work a wait still lasts until something arrives.
/// </summary>
public sealed class IdleWorkTests
{
    [Theory]
    [InlineData("Blocking")]
    [InlineData("Sleeping")]
    public void Idle_work_runs_on_the_processor_thread_while_nothing_arrives_and_slots_are_still_consumed(string waitStrategy)
    {
        WaitStrategyKind wait = Enum.Parse<WaitStrategyKind>(waitStrategy);
        var ring = new SequenceRing<TestEvent>(64, ProducerMode.Single);
        BatchEventProcessor<TestEvent, OrderCheckingHandler> consumer = ring.AddProcessor(new OrderCheckingHandler(1), wait, "idle-consumer");
        int runs = 0;
        int wrongThread = 0;
        consumer.SetIdleWork(
            () =>
            {
                if (Thread.CurrentThread.Name != "idle-consumer")
                {
                    Interlocked.Increment(ref wrongThread);
                }

                Interlocked.Increment(ref runs);
            },
            TimeSpan.FromMilliseconds(10));
        ring.Start();

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref runs) >= 3, RingTestHelpers.Timeout), "idle work never ran while the ring was empty");
        RingTestHelpers.Produce(ring, 0, 100);
        Assert.True(SpinWait.SpinUntil(() => consumer.Sequence.Value == 99, RingTestHelpers.Timeout));
        int afterBatch = Volatile.Read(ref runs);
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref runs) > afterBatch, RingTestHelpers.Timeout), "idle work stopped after a batch");

        Assert.True(ring.DrainAndStop(RingTestHelpers.Timeout));
        Assert.Equal(0, wrongThread);
        Assert.Equal(0, consumer.Handler.Violations);
        Assert.Equal(100, consumer.Handler.Count);
    }

    [Fact]
    public void Idle_work_cannot_be_set_once_the_processor_runs()
    {
        var ring = new SequenceRing<TestEvent>(64, ProducerMode.Single);
        EventProcessor consumer = ring.AddProcessor(new OrderCheckingHandler(1), WaitStrategyKind.Blocking, "late");
        ring.Start();

        Assert.Throws<InvalidOperationException>(() => consumer.SetIdleWork(() => { }, TimeSpan.FromMilliseconds(10)));
        Assert.True(ring.DrainAndStop(RingTestHelpers.Timeout));
    }
}
