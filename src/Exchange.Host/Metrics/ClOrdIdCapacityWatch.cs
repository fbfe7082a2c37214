using Microsoft.Extensions.Logging;

namespace Exchange.Host.Metrics;

/// <summary>
/// Warns once a trading day when the day's client order ids pass 80% of <c>Venue:Pipeline:MaxClOrdIdsPerDay</c>, while
/// there is still time to act (raise the limit at the next restart, ask a client why it burns ids): at 100% every new
/// order and replace is rejected until the next day.
/// </summary>
/// <remarks>
/// Reads the count the matcher leaves in <see cref="MatcherCounters"/>, never the engine. Called from the venue's
/// periodic work (a timer whose callbacks may overlap, hence the lock, or the polling thread). Once a day means once per
/// <see cref="MatcherCounters.TradingDaysStarted"/>, the day the matcher has processed: not the count dropping under the
/// threshold, which a check every 200 ms could miss, nor the day the venue has published, whose count the matcher may
/// not have reset yet.
/// </remarks>
internal sealed partial class ClOrdIdCapacityWatch
{
    /// <summary>The share of the capacity that triggers the warning, in percent.</summary>
    public const int WarningPercent = 80;

    private readonly MatcherCounters _counters;
    private readonly int _capacity;
    private readonly int _threshold;
    private readonly ILogger _logger;
    private readonly Lock _lock = new();
    private long _warnedDay = -1;

    public ClOrdIdCapacityWatch(MatcherCounters counters, int capacity, ILogger logger)
    {
        ArgumentNullException.ThrowIfNull(counters);
        ArgumentOutOfRangeException.ThrowIfLessThan(capacity, 1);
        _counters = counters;
        _capacity = capacity;
        _threshold = (int)Math.Ceiling(capacity * (WarningPercent / 100.0));
        _logger = logger;
    }

    /// <summary>Logs the warning when the count has reached the threshold and it was not yet logged this day.</summary>
    /// <returns>True when this call logged it.</returns>
    public bool Check()
    {
        lock (_lock)
        {
            long day = _counters.TradingDaysStarted;
            int used = _counters.ClOrdIdsUsedToday;
            if (used < _threshold || day == _warnedDay)
            {
                return false;
            }

            _warnedDay = day;
            LogNearCapacity(_logger, used, _capacity, WarningPercent);
            return true;
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Used} of the day's {Capacity} client order ids are used (at least {Percent}%); once all are, new orders and replaces are rejected until the next trading day (Venue:Pipeline:MaxClOrdIdsPerDay, Venue:TradingDay:StartsAt)")]
    private static partial void LogNearCapacity(ILogger logger, int used, int capacity, int percent);
}
