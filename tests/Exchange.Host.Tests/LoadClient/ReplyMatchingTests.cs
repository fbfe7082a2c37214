using System.Net.Sockets;
using Exchange.Fix.Codec;
using Exchange.LoadClient.Measurement;
using Exchange.LoadClient.Orders;
using Exchange.LoadClient.Session;
using Xunit;

namespace Exchange.Host.Tests.LoadClient;

public sealed class ReplyMatchingTests : IDisposable
{
    private const long Highest = 60_000_000_000;
    private readonly ClOrdIdCodec _codec = new("RUN0001");
    private readonly FixClientSession _session = new(new Socket(SocketType.Stream, ProtocolType.Tcp), "LOADGEN", "EXCH", busyPoll: false);
    private int _venueSeq = 1;

    public void Dispose() => _session.Dispose();

    [Fact]
    public void Throughput_counts_measured_orders_only_not_warm_up_ones_still_in_flight()
    {
        var tracker = new OrderTracker(flowOrders: 4, prepopulate: 0, warmup: 2, latencyEvery: 1, correctedForSchedule: false, Highest);
        var reader = new ReplyReader(_session, tracker, _codec);
        for (int n = 0; n < 4; n++)
        {
            tracker.OnSent(n, 100 + (n * 100), 100 + (n * 100));
        }

        // Both warm-up orders are answered after the first measured send (order 2, at 300).
        for (int n = 0; n < 4; n++)
        {
            reader.Append(ExecutionReport(OrderKind.Flow, n, (byte)'0'));
            reader.Process(receivedTicks: 1_000 + n);
        }

        Assert.Equal(2, tracker.AcknowledgedBetween(tracker.SentAt(2), tracker.LastAckTicks));
    }

    [Fact]
    public void FirstReport_AcksTheOrder_AndLaterReportsAreOnlyCounted()
    {
        var tracker = new OrderTracker(flowOrders: 4, prepopulate: 2, warmup: 1, latencyEvery: 1, correctedForSchedule: false, Highest);
        var reader = new ReplyReader(_session, tracker, _codec);
        tracker.OnSent(0, 1_000, 1_000);
        tracker.OnSent(2, 2_000, 2_000);

        reader.Append(ExecutionReport(OrderKind.Flow, 2, (byte)'0'));
        reader.Append(ExecutionReport(OrderKind.Flow, 0, (byte)'F'));
        reader.Append(ExecutionReport(OrderKind.Flow, 2, (byte)'F'));
        reader.Append(ExecutionReport(OrderKind.Prepopulate, 1, (byte)'0'));
        reader.Process(receivedTicks: 7_000);

        Assert.True(tracker.IsAcked(0));
        Assert.True(tracker.IsAcked(2));
        Assert.False(tracker.IsAcked(1));
        Assert.Equal(2, tracker.FlowAcked);
        Assert.Equal(1, tracker.PrepopulateAcked);
        Assert.Equal(2, tracker.ExecNew);
        Assert.Equal(2, tracker.ExecTrade);
        Assert.Equal(1, tracker.OrdersFilledOnArrival);
        Assert.Equal(7_000, tracker.LastAckTicks);

        // Order 0 is warm-up: only order 2's first report (5,000 ticks) is recorded.
        Assert.Equal(1, tracker.Latency.TotalCount);
        Assert.Equal(5_000, tracker.Latency.ValueAtPercentile(50), tolerance: 5);
        Assert.Equal(4, reader.MessagesRead);
        Assert.Equal(0, reader.SequenceGaps);
    }

    [Fact]
    public void ScheduledRuns_MeasureFromTheIntendedTime_AndKeepTheRawLatency()
    {
        var tracker = new OrderTracker(flowOrders: 1, prepopulate: 0, warmup: 0, latencyEvery: 1, correctedForSchedule: true, Highest);
        var reader = new ReplyReader(_session, tracker, _codec);
        tracker.OnSent(0, intended: 10_000, sent: 30_000);

        reader.Append(ExecutionReport(OrderKind.Flow, 0, (byte)'0'));
        reader.Process(receivedTicks: 50_000);

        Assert.Equal(40_000, tracker.Latency.ValueAtPercentile(50), tolerance: 40);
        Assert.Equal(20_000, tracker.Raw.ValueAtPercentile(50), tolerance: 20);
    }

    [Fact]
    public void MixedMode_RecordsOnlyLatencyOrders()
    {
        var tracker = new OrderTracker(flowOrders: 400, prepopulate: 0, warmup: 100, latencyEvery: 100, correctedForSchedule: false, Highest);
        var reader = new ReplyReader(_session, tracker, _codec);
        for (long n = 0; n < 400; n++)
        {
            tracker.OnSent(n, n, n);
            reader.Append(ExecutionReport(OrderKind.Flow, n, (byte)'0'));
            reader.Process(receivedTicks: n + 10);
        }

        Assert.Equal(400, tracker.FlowAcked);
        Assert.Equal(3, tracker.Latency.TotalCount); // orders 100, 200, 300
    }

    [Fact]
    public void StageStamps_AreBrokenDown()
    {
        var tracker = new OrderTracker(flowOrders: 1, prepopulate: 0, warmup: 0, latencyEvery: 1, correctedForSchedule: false, Highest);
        var reader = new ReplyReader(_session, tracker, _codec);
        tracker.OnSent(0, 1_000, 1_000);

        reader.Append(ExecutionReport(OrderKind.Flow, 0, (byte)'0', stages: (3_000, 9_000, 5_000, 10_000)));
        reader.Process(receivedTicks: 14_000);

        Assert.Equal(1, tracker.Stages.Recorded);
        Assert.Equal(2_000, tracker.Stages.ClientToReceived.Max, tolerance: 2);
        Assert.Equal(6_000, tracker.Stages.ReceivedToJournaled.Max, tolerance: 6);
        Assert.Equal(2_000, tracker.Stages.ReceivedToMatched.Max, tolerance: 2);
        Assert.Equal(1_000, tracker.Stages.ReadyToSent.Max, tolerance: 1);
        Assert.Equal(4_000, tracker.Stages.SentToClient.Max, tolerance: 4);
    }

    [Fact]
    public void ReportsWithoutStages_AreNotBrokenDown()
    {
        var tracker = new OrderTracker(flowOrders: 1, prepopulate: 0, warmup: 0, latencyEvery: 1, correctedForSchedule: false, Highest);
        var reader = new ReplyReader(_session, tracker, _codec);
        tracker.OnSent(0, 1_000, 1_000);

        reader.Append(ExecutionReport(OrderKind.Flow, 0, (byte)'0'));
        reader.Process(receivedTicks: 2_000);

        Assert.Equal(1, tracker.Latency.TotalCount);
        Assert.Equal(0, tracker.Stages.Recorded);
    }

    [Fact]
    public void ForeignAndOutOfRangeIds_AreUnmatched()
    {
        var tracker = new OrderTracker(flowOrders: 2, prepopulate: 0, warmup: 0, latencyEvery: 1, correctedForSchedule: false, Highest);
        var reader = new ReplyReader(_session, tracker, _codec);

        reader.Append(ExecutionReport(new ClOrdIdCodec("OTHER01"), OrderKind.Flow, 0, (byte)'0'));
        reader.Append(ExecutionReport(OrderKind.Flow, 5, (byte)'0'));
        reader.Append(ExecutionReport(OrderKind.Prepopulate, 0, (byte)'0'));
        reader.Process(receivedTicks: 1);

        Assert.Equal(0, tracker.FlowAcked);
        Assert.Equal(3, tracker.UnmatchedReports);
    }

    [Fact]
    public void MessageSplitAcrossReads_IsHandledOnceComplete()
    {
        var tracker = new OrderTracker(flowOrders: 1, prepopulate: 0, warmup: 0, latencyEvery: 1, correctedForSchedule: false, Highest);
        var reader = new ReplyReader(_session, tracker, _codec);
        tracker.OnSent(0, 1, 1);
        byte[] report = ExecutionReport(OrderKind.Flow, 0, (byte)'8');

        reader.Append(report.AsSpan(0, 40));
        reader.Process(receivedTicks: 5);
        Assert.False(tracker.IsAcked(0));

        reader.Append(report.AsSpan(40));
        reader.Process(receivedTicks: 9);
        Assert.True(tracker.IsAcked(0));
        Assert.Equal(1, tracker.OrdersRejected);
        Assert.Equal(1, tracker.ExecRejected);
    }

    [Fact]
    public void AdminMessages_UpdateTheSession_AndGapsAreCounted()
    {
        var tracker = new OrderTracker(flowOrders: 1, prepopulate: 0, warmup: 0, latencyEvery: 1, correctedForSchedule: false, Highest);
        var reader = new ReplyReader(_session, tracker, _codec);

        reader.Append(Admin("A"u8, static (ref FixMessageWriter w) => w.AddInt(FixTags.HeartBtInt, 30)));
        reader.Process(1);
        Assert.True(_session.IsLoggedOn);

        _venueSeq++; // skip one number
        reader.Append(Admin("3"u8, static (ref FixMessageWriter w) => w.AddSpan(FixTags.Text, "bad"u8)));
        reader.Append(Admin("5"u8, static (ref FixMessageWriter w) => w.AddSpan(FixTags.Text, "bye"u8)));
        reader.Process(2);

        Assert.Equal(1, reader.SequenceGaps);
        Assert.Equal(1, tracker.SessionRejects);
        Assert.True(_session.LogoutReceived);
        Assert.False(_session.IsLoggedOn);
        Assert.Equal("bye", _session.LastSessionText);
    }

    [Fact]
    public void GarbledBytes_AreSkipped()
    {
        var tracker = new OrderTracker(flowOrders: 1, prepopulate: 0, warmup: 0, latencyEvery: 1, correctedForSchedule: false, Highest);
        var reader = new ReplyReader(_session, tracker, _codec);
        tracker.OnSent(0, 1, 1);

        reader.Append("8=FIX.4.4\u00019=5\u000135=0\u000110=000\u0001"u8);
        reader.Append(ExecutionReport(OrderKind.Flow, 0, (byte)'0'));
        reader.Process(3);

        Assert.True(reader.GarbledFrames > 0);
        Assert.True(tracker.IsAcked(0));
    }

    private delegate void BodyWriter(ref FixMessageWriter writer);

    private byte[] ExecutionReport(OrderKind kind, long number, byte execType, (long R, long J, long M, long S)? stages = null) =>
        ExecutionReport(_codec, kind, number, execType, stages);

    private byte[] ExecutionReport(ClOrdIdCodec codec, OrderKind kind, long number, byte execType, (long R, long J, long M, long S)? stages = null)
    {
        byte[] clOrdId = new byte[ClOrdIdCodec.Length];
        codec.Write(kind, number, clOrdId);
        byte[] buffer = new byte[FixMessageWriter.TypicalMaxLength];
        var w = new FixMessageWriter(buffer);
        w.Begin("8"u8, new FixHeader("EXCH"u8, "LOADGEN"u8, _venueSeq++, 0));
        w.AddInt(FixTags.OrderID, 1);
        w.AddInt(FixTags.ExecID, 1);
        w.AddChar(FixTags.ExecType, execType);
        w.AddChar(FixTags.OrdStatus, execType == (byte)'F' ? (byte)'2' : execType);
        w.AddSpan(FixTags.ClOrdID, clOrdId);
        if (stages is { } s)
        {
            w.AddInt(StageBreakdown.ReceivedTag, s.R);
            w.AddInt(StageBreakdown.JournaledTag, s.J);
            w.AddInt(StageBreakdown.MatchedTag, s.M);
            w.AddInt(StageBreakdown.SentTag, s.S);
        }

        return buffer.AsSpan(0, w.Finish()).ToArray();
    }

    private byte[] Admin(ReadOnlySpan<byte> msgType, BodyWriter body)
    {
        byte[] buffer = new byte[FixMessageWriter.TypicalMaxLength];
        var w = new FixMessageWriter(buffer);
        w.Begin(msgType, new FixHeader("EXCH"u8, "LOADGEN"u8, _venueSeq++, 0));
        body(ref w);
        return buffer.AsSpan(0, w.Finish()).ToArray();
    }
}
