using Exchange.Core.Commands;
using Exchange.Fix.Gateway;
using Exchange.Fix.Session;
using Microsoft.Extensions.Logging;

namespace Exchange.Host.Venue;

/// <summary>
/// Starts each trading day by publishing a <see cref="CommandType.NewTradingDay"/> command through the venue's ingress,
/// stamped with the clock's time: once at start-up when the journal ends in an earlier day, then whenever the clock
/// crosses a day boundary. The engine has no clock, so the day boundary exists for it only as this journalled command,
/// which a replay meets at the same place.
/// </summary>
/// <remarks>
/// <para>Threading: <see cref="StartAfterReplay"/> once, before connections and the periodic work begin;
/// <see cref="Check"/> from the Threaded timer (callbacks may overlap, hence the lock) or the Inline polling thread,
/// the only producer in that mode. It never touches the engine: the command takes the ingress like any order.</para>
/// <para>The roll is seen on the first check after the boundary (the checks run every 200 ms). Orders taken in between
/// belong to the day that is ending, however they are stamped.</para>
/// </remarks>
internal sealed partial class TradingDayRoller
{
    private readonly TradingDayCalendar _calendar;
    private readonly IClock _clock;
    private readonly ICommandPublisher _commands;
    private readonly ILogger _logger;
    private readonly Lock _lock = new();
    private long _day;

    public TradingDayRoller(TradingDayCalendar calendar, IClock clock, ICommandPublisher commands, ILogger logger)
    {
        _calendar = calendar;
        _clock = clock;
        _commands = commands;
        _logger = logger;
    }

    /// <summary>The trading day the venue is in: the last one it started or found in the journal.</summary>
    public long CurrentDay
    {
        get
        {
            lock (_lock)
            {
                return _day;
            }
        }
    }

    /// <summary>
    /// Start-up, after the journal replay: publishes a new trading day when the engine's day at the journal's end is
    /// earlier than the clock's. That day comes from the last NewTradingDay command (or the earliest command of a
    /// journal that never rolled), not from the latest command: an order stamped just after a boundary can be journalled
    /// before the roll is (the roll is checked every 200 ms), and a crash between the two must still roll at restart;
    /// and an order stamped just before a roll but journalled after it must not make the next start roll a second time.
    /// </summary>
    /// <param name="journalDayTimestamp">A time in the engine's trading day at the journal's end; null for an empty journal.</param>
    /// <returns>True when a new trading day was published.</returns>
    public bool StartAfterReplay(long? journalDayTimestamp)
    {
        lock (_lock)
        {
            long now = _clock.UtcNowNanos;
            long today = _calendar.DayOf(now);
            if (journalDayTimestamp is not long stamp)
            {
                // A fresh journal is a fresh day: the engine has no ids to forget and no orders to expire.
                _day = today;
                LogDayContinues(_logger, _calendar.StartOf(today), "the journal is empty");
                return false;
            }

            long journalDay = _calendar.DayOf(stamp);
            if (journalDay < today)
            {
                _day = journalDay;
                return Publish(now, today, $"the journal ends in the day that began {_calendar.StartOf(journalDay):u}");
            }

            // A journal stamped ahead of the clock (a clock set back): stay in the journal's day, so the day it has
            // already seen is not started a second time when the clock reaches it.
            _day = journalDay;
            LogDayContinues(_logger, _calendar.StartOf(journalDay), "the journal ends in this day");
            return false;
        }
    }

    /// <summary>Publishes a new trading day when the clock has passed into a later day than the current one.</summary>
    /// <returns>True when a new trading day was published.</returns>
    public bool Check()
    {
        lock (_lock)
        {
            long now = _clock.UtcNowNanos;
            long day = _calendar.DayOf(now);
            return day > _day && Publish(now, day, "the clock passed the day's start");
        }
    }

    private bool Publish(long now, long day, string why)
    {
        var command = new Command { Type = CommandType.NewTradingDay, Timestamp = now };
        if (!_commands.TryPublish(in command))
        {
            // Only a stopping venue refuses; the day stays as it was, and a restart rolls it.
            LogRollRefused(_logger, _calendar.StartOf(day));
            return false;
        }

        _day = day;
        LogRolled(_logger, _calendar.StartOf(day), why);
        return true;
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "New trading day {Start:u} ({Why}): resting Day orders expire and the client order ids used so far are released")]
    private static partial void LogRolled(ILogger logger, DateTime start, string why);

    [LoggerMessage(Level = LogLevel.Information, Message = "Trading day {Start:u} continues ({Why})")]
    private static partial void LogDayContinues(ILogger logger, DateTime start, string why);

    [LoggerMessage(Level = LogLevel.Warning, Message = "New trading day {Start:u} not started: the venue is stopping")]
    private static partial void LogRollRefused(ILogger logger, DateTime start);
}
