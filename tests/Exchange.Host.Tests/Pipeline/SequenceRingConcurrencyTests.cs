using Exchange.Host.Pipeline;
using Xunit;

namespace Exchange.Host.Tests.Pipeline;

/// <summary>
/// The ring under the conditions most likely to expose a race: many threads on a ring of four slots, so every
/// claim waits on the slowest of several consumers; and two blocking consumers handing one event back and forth, so
/// every event arrives while its consumer is asleep. A failure shows as a violation count or a step that never
/// completes (the blocking wait has no timeout, so a lost wake-up hangs), never as a timing threshold.
/// </summary>
public sealed class SequenceRingConcurrencyTests
{
    private static readonly TimeSpan Timeout = RingTestHelpers.Timeout;

    [Theory]
    [InlineData("Blocking")]
    [InlineData("Sleeping")]
    [InlineData("Yielding")]
    public void Three_producers_on_a_four_slot_ring_with_a_gated_chain_and_a_parallel_reader_lose_nothing(string kindName)
    {
        WaitStrategyKind kind = Enum.Parse<WaitStrategyKind>(kindName);
        const int producerCount = 3;
        const int perProducer = 20_000;
        var ring = new SequenceRing<TestEvent>(4, ProducerMode.Multi);
        var journal = ring.AddProcessor(new StampingHandler(second: false), kind, "test-journal");
        var matcher = ring.AddProcessor(new StampingHandler(second: true), kind, "test-matcher");
        var sender = ring.AddProcessor(new GatedCheckingHandler(journal.Sequence, matcher.Sequence), kind, "test-sender", null, journal, matcher);
        var reader = ring.AddProcessor(new OrderCheckingHandler(producerCount), kind, "test-reader");
        ring.Start();

        Thread[] producers = Enumerable.Range(0, producerCount)
            .Select(p => new Thread(() => RingTestHelpers.Produce(ring, p, perProducer)) { IsBackground = true })
            .ToArray();
        Array.ForEach(producers, static t => t.Start());
        Array.ForEach(producers, static t => Assert.True(t.Join(Timeout), "a producer never got a slot"));

        Assert.True(ring.DrainAndStop(Timeout));
        const long total = producerCount * perProducer;
        Assert.Equal(total, journal.Handler.Count);
        Assert.Equal(total, matcher.Handler.Count);
        Assert.Equal(total, sender.Handler.Count);
        Assert.Equal(0, sender.Handler.Violations);
        Assert.Equal(0, reader.Handler.Violations);
        for (int p = 0; p < producerCount; p++)
        {
            Assert.Equal(perProducer, reader.Handler.NextExpected(p));
        }
    }

    [Fact]
    public void Two_blocking_consumers_playing_ping_pong_are_woken_for_every_event()
    {
        const int rounds = 20_000;
        var replies = new SequenceRing<TestEvent>(8, ProducerMode.Single);
        var replyReader = replies.AddProcessor(new OrderCheckingHandler(1), WaitStrategyKind.Blocking, "test-reply-reader");
        var requests = new SequenceRing<TestEvent>(8, ProducerMode.Single);
        var echo = requests.AddProcessor(new EchoHandler(replies), WaitStrategyKind.Blocking, "test-echo");
        replies.Start();
        requests.Start();

        for (long round = 0; round < rounds; round++)
        {
            ref TestEvent slot = ref requests.Claim(out long sequence);
            slot.Producer = 0;
            slot.Value = round;
            requests.Publish(sequence);

            // One event in flight: both consumers have gone idle (and most likely to sleep) before the next one.
            // Yielding rather than SpinWait.SpinUntil, whose 1 ms sleeps would dominate the test's run time.
            var waited = System.Diagnostics.Stopwatch.StartNew();
            while (replyReader.Sequence.Value != round)
            {
                Assert.True(
                    waited.Elapsed < Timeout,
                    $"round {round}: the reply never arrived (echo at {echo.Sequence.Value}, reply reader at {replyReader.Sequence.Value})");
                Thread.Yield();
            }
        }

        Assert.True(requests.DrainAndStop(Timeout));
        Assert.True(replies.DrainAndStop(Timeout));
        Assert.Equal(0, replyReader.Handler.Violations);
        Assert.Equal(rounds, replyReader.Handler.Count);
        Assert.Null(echo.Fault);
    }

    /// <summary>Republishes each event it consumes into another ring, as the matcher feeds the outbound ring.</summary>
    private readonly struct EchoHandler(SequenceRing<TestEvent> target) : IEventHandler<TestEvent>
    {
        public void OnEvent(ref TestEvent evt, long sequence, bool endOfBatch)
        {
            ref TestEvent reply = ref target.Claim(out long replySequence);
            reply.Producer = evt.Producer;
            reply.Value = evt.Value;
            target.Publish(replySequence);
        }
    }
}
