using Exchange.Core.Events;
using Exchange.Fix.Gateway;
using Exchange.Host.Pipeline;
using Exchange.Host.Venue;
using Xunit;

namespace Exchange.Host.Tests.Venue;

public sealed class DurabilityGateTests
{
    [Theory]
    [InlineData("Blocking")]
    [InlineData("Yielding")]
    [InlineData("Sleeping")]
    public void The_sender_holds_a_report_until_its_command_is_durable(string waitName)
    {
        WaitStrategyKind wait = WaitStrategies.Parse(waitName, "test");
        var durable = new Sequence(4);
        var gate = new DurabilityGate(durable);
        var gateway = new FakeGateway();
        var ring = new SequenceRing<OutboundSlot>(64, ProducerMode.Single);
        ring.AddProcessor(new SenderHandler(gateway, gate, wait, null), WaitStrategyKind.Blocking, "sender-test");
        ring.Start();
        try
        {
            Publish(ring, commandSequence: 4);
            Publish(ring, commandSequence: 5);
            gateway.WaitForEvents(1);

            // Command 5 is not durable yet: however long we look, only command 4's report is out.
            Thread.Sleep(50);
            Assert.Single(gateway.Events());

            long beforeDurable = System.Diagnostics.Stopwatch.GetTimestamp();
            durable.SetValue(5);
            long committedAt = System.Diagnostics.Stopwatch.GetTimestamp();
            gate.Advanced(committedAt);
            List<(EngineEvent Event, StageTimes Times)> events = gateway.WaitForEvents(2);
            Assert.Equal([4L, 5L], events.Select(e => e.Event.CommandSequence));

            // Command 5's "journaled" stamp is its commit's time, as the journaller reported it. A polling sender can
            // see the durable sequence move before that report (as in the venue: the writer publishes it, then the
            // journaller calls Advanced); it then stamps its own send time (CommitTimeOf's fallback), taken after the
            // sequence became durable. A parked (Blocking) sender is only woken by the report, so its stamp is exact.
            StageTimes times = events[1].Times;
            if (wait == WaitStrategyKind.Blocking || times.Journaled != times.Sent)
            {
                Assert.Equal(committedAt, times.Journaled);
                Assert.True(times.Sent >= committedAt);
            }
            else
            {
                Assert.True(times.Journaled >= beforeDurable);
            }
        }
        finally
        {
            Assert.True(ring.DrainAndStop(TimeSpan.FromSeconds(10)));
        }
    }

    [Fact]
    public void A_commit_time_is_given_for_the_sequences_it_covers_and_never_for_later_ones()
    {
        var durable = new Sequence(-1);
        var gate = new DurabilityGate(durable);
        Assert.Equal(99, gate.CommitTimeOf(0, fallback: 99)); // nothing committed yet

        durable.SetValue(7);
        gate.Advanced(1_000);
        Assert.Equal(1_000, gate.CommitTimeOf(3, fallback: 99));
        Assert.Equal(1_000, gate.CommitTimeOf(7, fallback: 99));

        // Durable through 9 but not reported yet: no time is invented for it.
        durable.SetValue(9);
        Assert.Equal(99, gate.CommitTimeOf(8, fallback: 99));
        gate.Advanced(2_000);
        Assert.Equal(2_000, gate.CommitTimeOf(8, fallback: 99));
    }

    [Fact]
    public void An_aborted_gate_releases_the_sender_without_sending()
    {
        var gate = new DurabilityGate(new Sequence(-1));
        var gateway = new FakeGateway();
        var ring = new SequenceRing<OutboundSlot>(64, ProducerMode.Single);
        BatchEventProcessor<OutboundSlot, SenderHandler> sender =
            ring.AddProcessor(new SenderHandler(gateway, gate, WaitStrategyKind.Blocking, null), WaitStrategyKind.Blocking, "sender-test");
        ring.Start();
        Publish(ring, commandSequence: 0);
        gate.Abort();
        Assert.True(ring.DrainAndStop(TimeSpan.FromSeconds(10)));
        Assert.Empty(gateway.Events());
        Assert.Equal(1, sender.Handler.Dropped);
    }

    [Theory]
    [InlineData(true, 1)]
    [InlineData(false, 0)]
    public void A_threaded_sender_prepares_the_session_stores_once_per_batch(bool prepareAfterBatch, int expected)
    {
        var gateway = new FakeGateway();
        var ring = new SequenceRing<OutboundSlot>(64, ProducerMode.Single);
        BatchEventProcessor<OutboundSlot, SenderHandler> sender = ring.AddProcessor(
            new SenderHandler(gateway, new DurabilityGate(new Sequence(long.MaxValue)), WaitStrategyKind.Blocking, null, prepareAfterBatch),
            WaitStrategyKind.Blocking,
            "sender-test");
        for (int i = 0; i < 3; i++)
        {
            Publish(ring, commandSequence: i);
        }

        Assert.Equal(3, sender.RunAvailable()); // one batch of three, on this thread
        Assert.Equal(3, gateway.Events().Count);
        Assert.Equal(expected, gateway.PrepareCalls);
    }

    [Fact]
    public void A_batch_of_dropped_reports_still_ends_with_a_preparation()
    {
        var gate = new DurabilityGate(new Sequence(-1));
        gate.Abort();
        var gateway = new FakeGateway();
        var ring = new SequenceRing<OutboundSlot>(64, ProducerMode.Single);
        BatchEventProcessor<OutboundSlot, SenderHandler> sender = ring.AddProcessor(
            new SenderHandler(gateway, gate, WaitStrategyKind.Blocking, null, prepareAfterBatch: true), WaitStrategyKind.Blocking, "sender-test");
        Publish(ring, commandSequence: 0);
        Publish(ring, commandSequence: 1);

        Assert.Equal(2, sender.RunAvailable());
        Assert.Equal(2, sender.Handler.Dropped);
        Assert.Equal(1, gateway.PrepareCalls);
    }

    private static void Publish(SequenceRing<OutboundSlot> ring, long commandSequence)
    {
        ref OutboundSlot slot = ref ring.Claim(out long sequence);
        slot.Event = new EngineEvent { Type = EventType.Accepted, CommandSequence = commandSequence };
        slot.Times = default;
        ring.Publish(sequence);
    }
}
