using System.Globalization;

namespace Exchange.Host.Venue;

/// <summary>
/// Which trading day a moment falls in. Trading days are numbered from the Unix epoch and each begins at the same
/// UTC time of day (<c>Venue:TradingDay:StartsAt</c>); UTC, so a day is always 24 hours and no daylight-saving change
/// moves the boundary.
/// </summary>
/// <remarks>Immutable, thread-safe.</remarks>
internal sealed class TradingDayCalendar
{
    private const long NanosPerDay = 86_400L * 1_000_000_000;

    private static readonly string[] Formats = [@"hh\:mm", @"hh\:mm\:ss"];

    private readonly long _startsAtNanos;

    public TradingDayCalendar(TimeSpan startsAt)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(startsAt, TimeSpan.Zero);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(startsAt, TimeSpan.FromDays(1));
        StartsAt = startsAt;
        _startsAtNanos = startsAt.Ticks * 100;
    }

    /// <summary>UTC time of day at which each trading day begins.</summary>
    public TimeSpan StartsAt { get; }

    /// <summary>
    /// Parses <c>Venue:TradingDay:StartsAt</c>: "HH:mm" or "HH:mm:ss", 00:00 to 23:59:59 (the exact formats' "hh" takes
    /// 0 to 23 hours and no sign, so nothing parsed lies outside one day).
    /// </summary>
    public static bool TryParseStartsAt(string? text, out TimeSpan startsAt) =>
        TimeSpan.TryParseExact(text?.Trim(), Formats, CultureInfo.InvariantCulture, out startsAt);

    /// <summary>The configured calendar; the options were validated, so an unparsable value here is a bug.</summary>
    public static TradingDayCalendar FromOptions(Configuration.TradingDayOptions options) =>
        TryParseStartsAt(options.StartsAt, out TimeSpan startsAt)
            ? new TradingDayCalendar(startsAt)
            : throw new InvalidOperationException($"Unvalidated trading day start '{options.StartsAt}'.");

    /// <summary>The number of the trading day <paramref name="utcNanos"/> (nanoseconds since the Unix epoch) falls in.</summary>
    public long DayOf(long utcNanos)
    {
        // Floor, not truncation: a moment before the first boundary after the epoch belongs to day -1.
        long sinceFirstStart = utcNanos - _startsAtNanos;
        long day = sinceFirstStart / NanosPerDay;
        return sinceFirstStart < 0 && sinceFirstStart % NanosPerDay != 0 ? day - 1 : day;
    }

    /// <summary>When trading day <paramref name="day"/> begins, in UTC.</summary>
    public DateTime StartOf(long day) => DateTime.UnixEpoch.AddDays(day) + StartsAt;
}
