using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// Gap recovery over a lossy line, on random streams: a client sends orders and heartbeats, some never arrive (a
/// garbled frame is dropped, the same thing for the session), and it answers every ResendRequest by replaying the range
/// (orders as PossDup, runs of admin messages as one gap fill), with losses too. Once the line stops losing, every
/// order must be delivered exactly once, in sequence order, without the session ending: a gap left by a lost replay
/// must be asked for again, not waited on for ever.
/// </summary>
public sealed class GapRecoveryRandomTests
{
    public static TheoryData<int, int> Seeds()
    {
        var data = new TheoryData<int, int>();
        for (int seed = 1; seed <= 40; seed++)
        {
            data.Add(seed, seed % 2 == 0 ? 0 : 5); // EndSeqNo 0, and ranges of at most 5 messages
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void Every_order_is_delivered_once_in_order_after_the_line_stops_losing(int seed, int chunkSize)
    {
        var random = new Random(seed);
        using var h = new SessionHarness(new SessionConfig(SessionHarness.Venue, SessionHarness.Client) { ResendRequestChunkSize = chunkSize });
        h.LogOn(heartBtInt: 30);
        var client = new LossyClient(h, random);

        // The lossy part: new messages and replays alike are lost one time in six.
        for (int step = 0; step < 300; step++)
        {
            client.SendNew(random.Next(100) < 80);
            client.Answer(lossPercent: 16);
            client.Tick(TimeSpan.FromMilliseconds(100));
        }

        // The line recovers; the client only answers the venue (and heartbeats), for at most ten simulated minutes.
        int seconds = 0;
        for (; seconds < 600 && h.Session.NextTargetSeqNum != client.NextSeq; seconds++)
        {
            client.Answer(lossPercent: 0);
            client.Tick(TimeSpan.FromSeconds(1));
        }

        Assert.Equal(SessionState.Active, h.Session.State);
        Assert.Equal(client.NextSeq, h.Session.NextTargetSeqNum);

        // A hole the last lossy replay left is asked for again within one HeartBtInt (30 s) at worst; every later replay
        // is whole. (The quicker re-ask at the end of a replay's range has its own tests in SequencingTests.)
        Assert.True(seconds <= 35, $"recovery took {seconds} s of simulated time");
        Assert.Equal(client.Orders, h.App.DeliveredSeqs);
    }

    /// <summary>The client side of the line: what it sent, and how it answers the venue.</summary>
    private sealed class LossyClient(SessionHarness h, Random random)
    {
        private readonly SortedDictionary<int, bool> _sent = []; // seq -> is an order
        private int _answered;
        private TimeSpan _sinceSent;

        public int NextSeq { get; private set; } = 2;

        public List<int> Orders => [.. _sent.Where(s => s.Value).Select(s => s.Key)];

        public void SendNew(bool order, int lossPercent = 16)
        {
            int seq = NextSeq++;
            _sent[seq] = order;
            _sinceSent = TimeSpan.Zero;
            if (random.Next(100) >= lossPercent)
            {
                h.Feed(order ? TestMsg.Order(seq) : TestMsg.Heartbeat(seq));
            }
        }

        /// <summary>Replays every ResendRequest the venue sent since the last call; answers TestRequests.</summary>
        public void Answer(int lossPercent)
        {
            while (_answered < h.Sent.Count)
            {
                SentMessage message = h.Sent[_answered++];
                if (message.MsgType == "2")
                {
                    int end = message.GetInt(16);
                    Replay(message.GetInt(7), end == 0 ? NextSeq - 1 : Math.Min(end, NextSeq - 1), lossPercent);
                }
                else if (message.MsgType == "1")
                {
                    SendNew(order: false, lossPercent);
                }
            }
        }

        public void Tick(TimeSpan elapsed)
        {
            h.Clock.Advance(elapsed);
            _sinceSent += elapsed;
            if (_sinceSent >= TimeSpan.FromSeconds(30))
            {
                SendNew(order: false, lossPercent: 0); // the client's own heartbeat
            }

            h.Session.Poll();
        }

        private void Replay(int begin, int end, int lossPercent)
        {
            long now = h.Clock.UtcNowNanos;
            int seq = begin;
            while (seq <= end)
            {
                TestMsg replayed;
                if (_sent[seq])
                {
                    replayed = TestMsg.Order(seq).AsPossDup(now);
                    seq++;
                }
                else
                {
                    int next = seq;
                    while (next <= end && !_sent[next])
                    {
                        next++;
                    }

                    replayed = TestMsg.SequenceReset(seq, next, gapFill: true).AsPossDup(now);
                    seq = next;
                }

                if (random.Next(100) >= lossPercent)
                {
                    h.Feed(replayed);
                }
            }
        }
    }
}
