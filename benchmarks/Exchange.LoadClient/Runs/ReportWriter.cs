using System.Diagnostics;
using System.Globalization;
using Exchange.LoadClient.Histogram;
using Exchange.LoadClient.Measurement;
using Exchange.LoadClient.Options;
using Exchange.LoadClient.Orders;
using Exchange.LoadClient.Session;

namespace Exchange.LoadClient.Runs;

/// <summary>Prints a run's counts, throughput and latency percentiles (microseconds), and writes the HDR file.</summary>
internal sealed class ReportWriter
{
    private static readonly double TicksPerMicrosecond = Stopwatch.Frequency / 1_000_000.0;

    private readonly LoadClientOptions _options;
    private readonly TextWriter _out;

    public ReportWriter(LoadClientOptions options, TextWriter output)
    {
        _options = options;
        _out = output;
    }

    public void Write(OrderTracker tracker, ReplyReader reader, OrderSender sender, long warmup, bool complete)
    {
        CultureInfo c = CultureInfo.InvariantCulture;
        long flow = tracker.FlowOrders;
        long measured = flow - warmup;
        _out.WriteLine(string.Format(c,
            "orders: sent {0} (incl. {1} warm-up, {2} pre-populated), acked {3}, rejected {4}, filled on arrival {5}{6}",
            sender.OrdersSent, warmup, _options.Prepopulate, tracker.FlowAcked + tracker.PrepopulateAcked, tracker.OrdersRejected,
            tracker.OrdersFilledOnArrival, complete ? string.Empty : "  ** INCOMPLETE **"));
        _out.WriteLine(string.Format(c,
            "execution reports: new {0}, trade {1}, cancelled {2}, rejected {3}, other {4}; session rejects {5}, business rejects {6}, not this run's (e.g. fills of orders an earlier run left resting) {7}, inbound seq gaps {8}, garbled {9}",
            tracker.ExecNew, tracker.ExecTrade, tracker.ExecCancelled, tracker.ExecRejected, tracker.ExecOther,
            tracker.SessionRejects, tracker.BusinessRejects, tracker.UnmatchedReports, reader.SequenceGaps, reader.GarbledFrames));

        if (measured > 0 && flow > warmup)
        {
            long firstSend = tracker.SentAt(warmup);
            long lastSend = tracker.SentAt(flow - 1);
            long lastAck = tracker.LastAckTicks;
            if (!complete)
            {
                _out.WriteLine("throughput: not reported (the run did not complete)");
            }
            else if (firstSend > 0 && lastAck > firstSend && lastSend >= firstSend)
            {
                // Measured orders only: the warm-up orders still in flight at the first measured send (up to a window)
                // are the venue's work inside the interval too, but counting them would claim orders nobody measured.
                double elapsed = (double)(lastAck - firstSend) / Stopwatch.Frequency;
                long acknowledged = tracker.AcknowledgedBetween(firstSend, lastAck);
                double sendElapsed = (double)Math.Max(1, lastSend - firstSend) / Stopwatch.Frequency;
                _out.WriteLine(string.Format(c,
                    "throughput: {0:F0} orders/s acknowledged ({1} acknowledged from the first measured send to the last ack, {2:F3} s; {3} measured orders); send rate {4:F0}/s",
                    acknowledged / elapsed, acknowledged, elapsed, measured, measured / sendElapsed));
            }

            if (tracker.OrdersRejected > 0)
            {
                _out.WriteLine(string.Format(c,
                    "WARNING: {0} orders were rejected (150=8); their replies are in the figures below. A ClOrdID used earlier today (a reused --run-id) is rejected as a duplicate.",
                    tracker.OrdersRejected));
            }
        }

        string basis = tracker.CorrectedForSchedule ? "from intended send time, coordinated-omission corrected" : "from send";
        WriteHistogram($"round trip ({basis})", tracker.Latency);
        if (tracker.CorrectedForSchedule)
        {
            WriteHistogram("round trip (raw, from actual send)", tracker.Raw);
        }

        if (tracker.Stages.Recorded > 0)
        {
            _out.WriteLine($"stages ({tracker.Stages.Recorded} measured replies carried venue stamps 7001-7004):");
            foreach ((string name, LatencyHistogram histogram) in tracker.Stages.Stages)
            {
                WriteHistogram("  " + name, histogram);
            }
        }
        else
        {
            _out.WriteLine("stages: the venue sent no stage stamps (tags 7001-7004)");
        }

        if (_options.HgrmOut is { } path)
        {
            using (var writer = new StreamWriter(path))
            {
                tracker.Latency.WritePercentileDistribution(writer, TicksPerMicrosecond);
            }

            _out.WriteLine($"HDR percentile distribution (microseconds) written to {path}");
        }

        if (_options.TimelineOut is { } timelinePath)
        {
            using (var writer = new StreamWriter(timelinePath))
            {
                TimelineWriter.Write(writer, tracker);
            }

            _out.WriteLine($"per-order timeline (CSV, microseconds) written to {timelinePath}");
        }
    }

    private void WriteHistogram(string name, LatencyHistogram h)
    {
        CultureInfo c = CultureInfo.InvariantCulture;
        _out.WriteLine(string.Format(c,
            "{0}, us: n={1} min {2:F1} mean {3:F1} p50 {4:F1} p90 {5:F1} p99 {6:F1} p99.9 {7:F1} max {8:F1}",
            name, h.TotalCount, Us(h.Min), h.Mean / TicksPerMicrosecond, Us(h.ValueAtPercentile(50)), Us(h.ValueAtPercentile(90)),
            Us(h.ValueAtPercentile(99)), Us(h.ValueAtPercentile(99.9)), Us(h.Max)));
        if (h.OutOfRangeCount > 0)
        {
            _out.WriteLine($"  WARNING: {h.OutOfRangeCount} values out of the histogram's range (negative or above 60 s) were not recorded");
        }
    }

    private static double Us(long ticks) => ticks / TicksPerMicrosecond;
}
