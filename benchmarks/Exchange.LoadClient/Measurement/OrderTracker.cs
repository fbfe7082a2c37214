using Exchange.Fix.Gateway;
using Exchange.LoadClient.Histogram;
using Exchange.LoadClient.Orders;

namespace Exchange.LoadClient.Measurement;

/// <summary>
/// Matches replies to orders and records latencies. Flow order n's send times live at index n of preallocated
/// arrays (the number comes back inside the ClOrdID), so matching is an array access: no dictionary, no allocation.
/// The first ExecutionReport for an order (New, Trade, Cancelled for an unfilled IOC, or Rejected) is its
/// acknowledgement; later reports (fills of resting orders) are only counted.
/// </summary>
/// <remarks>
/// Threading: <see cref="OnSent"/> on the sending thread, before the bytes reach the socket; every other method on
/// the reader thread. Counters the sender polls (<see cref="FlowAcked"/>, <see cref="PrepopulateAcked"/>) are
/// written with release semantics. Histograms are read after the reader has stopped.
/// </remarks>
internal sealed class OrderTracker
{
    private readonly long[] _intended;
    private readonly long[] _sent;
    private readonly long[] _received;
    private readonly bool[] _acked;
    private readonly bool[] _prepopulateAcked;
    private readonly long _warmup;
    private readonly int _latencyEvery;
    private long _flowAcked;
    private long _prepopulateAckCount;
    private long _lastAckTicks;

    /// <param name="flowOrders">Warm-up plus measured orders.</param>
    /// <param name="latencyEvery">1 measures every order after warm-up; K measures orders with n % K == 0.</param>
    /// <param name="correctedForSchedule">Rate modes: the main histogram is from the intended send time, and
    /// <see cref="Raw"/> holds the latency from the actual send.</param>
    public OrderTracker(long flowOrders, int prepopulate, long warmup, int latencyEvery, bool correctedForSchedule, long highestTrackable)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(latencyEvery);
        _intended = new long[flowOrders];
        _sent = new long[flowOrders];
        _received = new long[flowOrders];
        _acked = new bool[flowOrders];
        _prepopulateAcked = new bool[prepopulate];
        _warmup = warmup;
        _latencyEvery = latencyEvery;
        CorrectedForSchedule = correctedForSchedule;
        Latency = new LatencyHistogram(highestTrackable);
        Raw = new LatencyHistogram(highestTrackable);
        Stages = new StageBreakdown(highestTrackable);
    }

    public bool CorrectedForSchedule { get; }

    /// <summary>Round trip of measured orders: from the intended send time when corrected, else from the send.</summary>
    public LatencyHistogram Latency { get; }

    /// <summary>Round trip from the actual send (equal to <see cref="Latency"/> when not corrected).</summary>
    public LatencyHistogram Raw { get; }

    public StageBreakdown Stages { get; }

    public long FlowOrders => _sent.Length;

    public long FlowAcked => Volatile.Read(ref _flowAcked);

    public long PrepopulateAcked => Volatile.Read(ref _prepopulateAckCount);

    /// <summary>Stopwatch ticks when the last flow acknowledgement was read.</summary>
    public long LastAckTicks => Volatile.Read(ref _lastAckTicks);

    public long ExecNew { get; private set; }

    public long ExecTrade { get; private set; }

    public long ExecCancelled { get; private set; }

    public long ExecRejected { get; private set; }

    public long ExecOther { get; private set; }

    /// <summary>First replies that were rejects (150=8): orders the venue refused.</summary>
    public long OrdersRejected { get; private set; }

    /// <summary>Flow orders whose first reply already was a fill.</summary>
    public long OrdersFilledOnArrival { get; private set; }

    public long SessionRejects { get; private set; }

    public long BusinessRejects { get; private set; }

    /// <summary>Reports whose ClOrdID is not this run's or whose number is out of range.</summary>
    public long UnmatchedReports { get; private set; }

    /// <summary>
    /// Whether order <paramref name="n"/> is timed: one order in every block of LatencyEvery (every order when it is 1).
    /// The flow repeats every 20 orders (four kinds, <see cref="Orders.OrderFlow"/>: passive buy, passive sell,
    /// aggressive buy, aggressive sell; passive ones on five price levels), so a fixed place in the block would time one
    /// kind at one level only (at 100, always a passive buy one tick from mid). The b-th block times the order congruent
    /// to b modulo 20, which steps through every kind and level in turn (modulo 4, the kinds only, for blocks shorter
    /// than 20).
    /// </summary>
    public bool IsMeasured(long n)
    {
        if (n < _warmup)
        {
            return false;
        }

        long block = n / _latencyEvery;
        if (_latencyEvery == 2)
        {
            // Blocks of two hold kinds {0,1} and {2,3} in turn; the offset flips every second block, so four blocks
            // time the four kinds (the rule below would time kinds 0 and 3 only).
            return n % 2 == ((block >> 1) & 1);
        }

        int cycle = _latencyEvery >= 20 ? 20 : Math.Min(_latencyEvery, 4);
        long offset = ((block - (block * _latencyEvery)) % cycle + cycle) % cycle;
        return n % _latencyEvery == offset;
    }

    public bool IsAcked(long n) => Volatile.Read(ref _acked[n]);

    public void OnSent(long n, long intended, long sent)
    {
        _intended[n] = intended;
        Volatile.Write(ref _sent[n], sent);
    }

    public long SentAt(long n) => Volatile.Read(ref _sent[n]);

    /// <summary>
    /// Measured flow orders (past the warm-up) whose first reply arrived in [<paramref name="fromTicks"/>,
    /// <paramref name="toTicks"/>] (call after the run). Warm-up orders still in flight at the first measured send are
    /// left out, though the venue does their work in that time: the figure errs low, never high.
    /// </summary>
    public long AcknowledgedBetween(long fromTicks, long toTicks)
    {
        long count = 0;
        for (long n = _warmup; n < _acked.Length; n++)
        {
            if (Volatile.Read(ref _acked[n]) && _received[n] >= fromTicks && _received[n] <= toTicks)
            {
                count++;
            }
        }

        return count;
    }

    /// <summary>
    /// Measured order n's times in Stopwatch ticks (intended equals sent outside rate modes; 0 when never sent or
    /// acknowledged). Read after the reader has stopped.
    /// </summary>
    public (long Intended, long Sent, long Received) TimesOf(long n) => (_intended[n], _sent[n], _received[n]);

    public void OnSessionReject() => SessionRejects++;

    public void OnBusinessReject() => BusinessRejects++;

    public void OnUnmatched() => UnmatchedReports++;

    /// <summary>One ExecutionReport (35=8) of this run.</summary>
    public void OnExecutionReport(OrderKind kind, long number, byte execType, long receivedTicks, in StageTimes stages)
    {
        CountExecType(execType);
        if (kind == OrderKind.Prepopulate)
        {
            if ((ulong)number < (ulong)_prepopulateAcked.Length && !_prepopulateAcked[number])
            {
                _prepopulateAcked[number] = true;
                Volatile.Write(ref _prepopulateAckCount, _prepopulateAckCount + 1);
            }
            else if ((ulong)number >= (ulong)_prepopulateAcked.Length)
            {
                UnmatchedReports++;
            }

            return;
        }

        if ((ulong)number >= (ulong)_acked.Length)
        {
            UnmatchedReports++;
            return;
        }

        if (_acked[number])
        {
            return;
        }

        long sent = Volatile.Read(ref _sent[number]);
        if (execType == (byte)'8')
        {
            OrdersRejected++;
        }
        else if (execType == (byte)'F')
        {
            OrdersFilledOnArrival++;
        }

        if (IsMeasured(number) && sent != 0)
        {
            long raw = receivedTicks - sent;
            Raw.RecordValue(raw);
            Latency.RecordValue(CorrectedForSchedule ? receivedTicks - _intended[number] : raw);
            Stages.Record(sent, stages, receivedTicks);
        }

        _received[number] = receivedTicks;
        Volatile.Write(ref _acked[number], true);
        Volatile.Write(ref _lastAckTicks, receivedTicks);
        Volatile.Write(ref _flowAcked, _flowAcked + 1);
    }

    private void CountExecType(byte execType)
    {
        switch (execType)
        {
            case (byte)'0': ExecNew++; break;
            case (byte)'F': ExecTrade++; break;
            case (byte)'4': ExecCancelled++; break;
            case (byte)'8': ExecRejected++; break;
            default: ExecOther++; break;
        }
    }
}
