using System.Runtime.InteropServices;

namespace Exchange.Host.Metrics;

/// <summary>
/// Running totals owned by the matcher thread, exported by <see cref="VenueMetrics"/> through observable counters.
/// </summary>
/// <remarks>
/// Why not <c>Counter&lt;long&gt;.Add</c> per order: with a listener attached, each Add walks the instrument's
/// listener list and aggregates under the listener's synchronisation, tens of nanoseconds on the matching path and
/// shared cache lines with the collector thread. Here the single writer does a plain increment of a field nobody else
/// writes (a release store, so a reader sees a whole, recent value); the collector reads it with Volatile.Read only
/// when it polls, about once a second. The fields sit on their own cache lines, away from other hot data.
/// Writer: the matcher thread only. Readers: any thread.
/// </remarks>
[StructLayout(LayoutKind.Explicit, Size = 384)]
internal sealed class MatcherCounters
{
    [FieldOffset(128)]
    private long _orders;

    [FieldOffset(136)]
    private long _trades;

    [FieldOffset(144)]
    private long _rejects;

    [FieldOffset(152)]
    private long _tradingDaysStarted;

    [FieldOffset(160)]
    private int _clOrdIdsUsedToday;

    public long Orders => Volatile.Read(ref _orders);

    public long Trades => Volatile.Read(ref _trades);

    public long Rejects => Volatile.Read(ref _rejects);

    /// <summary>Client order ids the trading day has used, as the engine counted them at the end of the last batch.</summary>
    public int ClOrdIdsUsedToday => Volatile.Read(ref _clOrdIdsUsedToday);

    /// <summary>
    /// New trading days the matcher has processed since start: which day <see cref="ClOrdIdsUsedToday"/> belongs to.
    /// Read it first: a reader that sees a new day then sees that day's count, never the previous day's.
    /// </summary>
    public long TradingDaysStarted => Volatile.Read(ref _tradingDaysStarted);

    /// <summary>Matcher thread only.</summary>
    public void OrderReceived() => Volatile.Write(ref _orders, _orders + 1);

    /// <summary>Matcher thread only.</summary>
    public void TradesExecuted(int count) => Volatile.Write(ref _trades, _trades + count);

    /// <summary>Matcher thread only.</summary>
    public void Rejected() => Volatile.Write(ref _rejects, _rejects + 1);

    /// <summary>Matcher thread only (at start-up, the thread that replays the journal, before the matcher runs).</summary>
    public void ClOrdIdsUsed(int count) => Volatile.Write(ref _clOrdIdsUsedToday, count);

    /// <summary>Matcher thread only: a new trading day was processed, leaving <paramref name="clOrdIdsUsed"/> ids used.</summary>
    public void TradingDayStarted(int clOrdIdsUsed)
    {
        // The count before the day (release stores): see TradingDaysStarted.
        Volatile.Write(ref _clOrdIdsUsedToday, clOrdIdsUsed);
        Volatile.Write(ref _tradingDaysStarted, _tradingDaysStarted + 1);
    }
}
