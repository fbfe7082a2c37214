using System.Diagnostics;
using Exchange.Fix.Gateway;
using Exchange.LoadClient.Histogram;

namespace Exchange.LoadClient.Measurement;

/// <summary>
/// Per-stage histograms of measured orders' round trips, from the venue's stage stamps (tags 7001 Received, 7002
/// Journaled, 7003 Matched, 7004 Sent: Stopwatch ticks, CLOCK_MONOTONIC on Linux, so comparable with the client's
/// Stopwatch on the same machine). Journal and matcher run in parallel and the sender waits for both, so the third
/// stage starts at the later of the two.
/// </summary>
/// <remarks>Recorded on the reader thread only; read after it has stopped.</remarks>
internal sealed class StageBreakdown
{
    public const int ReceivedTag = 7001;
    public const int JournaledTag = 7002;
    public const int MatchedTag = 7003;
    public const int SentTag = 7004;

    public StageBreakdown(long highestTrackable)
    {
        ClientToReceived = new LatencyHistogram(highestTrackable);
        ReceivedToJournaled = new LatencyHistogram(highestTrackable);
        ReceivedToMatched = new LatencyHistogram(highestTrackable);
        ReadyToSent = new LatencyHistogram(highestTrackable);
        SentToClient = new LatencyHistogram(highestTrackable);
    }

    /// <summary>Client send (Stopwatch before encoding) to the gateway's receive stamp.</summary>
    public LatencyHistogram ClientToReceived { get; }

    public LatencyHistogram ReceivedToJournaled { get; }

    public LatencyHistogram ReceivedToMatched { get; }

    /// <summary>max(Journaled, Matched) to the sender's stamp: the wait for durability plus the outbound ring.</summary>
    public LatencyHistogram ReadyToSent { get; }

    /// <summary>The sender's stamp to the client's receive (after the socket read returned).</summary>
    public LatencyHistogram SentToClient { get; }

    public long Recorded { get; private set; }

    public IEnumerable<(string Name, LatencyHistogram Histogram)> Stages =>
    [
        ("client send -> venue received", ClientToReceived),
        ("received -> journaled", ReceivedToJournaled),
        ("received -> matched", ReceivedToMatched),
        ("max(journaled, matched) -> sent", ReadyToSent),
        ("venue sent -> client received", SentToClient),
    ];

    /// <summary>Records one reply; false (nothing recorded) when the venue did not stamp every stage.</summary>
    public bool Record(long clientSent, in StageTimes stages, long clientReceived)
    {
        if (stages.Received == 0 || stages.Journaled == 0 || stages.Matched == 0 || stages.Sent == 0)
        {
            return false;
        }

        ClientToReceived.RecordValue(stages.Received - clientSent);
        ReceivedToJournaled.RecordValue(stages.Journaled - stages.Received);
        ReceivedToMatched.RecordValue(stages.Matched - stages.Received);
        ReadyToSent.RecordValue(stages.Sent - Math.Max(stages.Journaled, stages.Matched));
        SentToClient.RecordValue(clientReceived - stages.Sent);
        Recorded++;
        return true;
    }

    public static long HighestTrackableTicks(int seconds) => Stopwatch.Frequency * seconds;
}
