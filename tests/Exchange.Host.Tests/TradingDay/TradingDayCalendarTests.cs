using Exchange.Host.Venue;
using Xunit;

namespace Exchange.Host.Tests.TradingDay;

public sealed class TradingDayCalendarTests
{
    internal static long Nanos(DateTime utc) => (utc.Ticks - DateTime.UnixEpoch.Ticks) * 100;

    [Theory]
    [InlineData("00:00", 0, 0, 0)]
    [InlineData("22:00", 22, 0, 0)]
    [InlineData("09:30:15", 9, 30, 15)]
    [InlineData(" 07:05 ", 7, 5, 0)]
    [InlineData("23:59:59", 23, 59, 59)]
    public void A_UTC_time_of_day_is_accepted(string text, int hours, int minutes, int seconds)
    {
        Assert.True(TradingDayCalendar.TryParseStartsAt(text, out TimeSpan startsAt));
        Assert.Equal(new TimeSpan(hours, minutes, seconds), startsAt);
    }

    [Theory]
    [InlineData("24:00")]
    [InlineData("25:00")]
    [InlineData("12:60")]
    [InlineData("7pm")]
    [InlineData("1.02:00")]
    [InlineData("-01:00")]
    [InlineData("")]
    [InlineData(null)]
    public void Anything_else_is_refused(string? text) => Assert.False(TradingDayCalendar.TryParseStartsAt(text, out _));

    [Fact]
    public void A_day_begins_exactly_at_the_configured_time_and_lasts_24_hours()
    {
        var calendar = new TradingDayCalendar(TimeSpan.FromHours(22));
        DateTime start = new(2026, 3, 2, 22, 0, 0, DateTimeKind.Utc);
        long day = calendar.DayOf(Nanos(start));

        Assert.Equal(day - 1, calendar.DayOf(Nanos(start) - 1));
        Assert.Equal(day, calendar.DayOf(Nanos(start.AddDays(1)) - 1));
        Assert.Equal(day + 1, calendar.DayOf(Nanos(start.AddDays(1))));
        Assert.Equal(start, calendar.StartOf(day));

        // Monday 10:00 belongs to the day that began on Sunday at 22:00.
        Assert.Equal(calendar.DayOf(Nanos(start.AddHours(-12))), day - 1);
        Assert.Equal(start.AddDays(-1), calendar.StartOf(calendar.DayOf(Nanos(start.AddHours(-12)))));
    }

    [Fact]
    public void Moments_before_the_first_boundary_after_the_epoch_fall_in_day_minus_one()
    {
        var calendar = new TradingDayCalendar(TimeSpan.FromHours(6));

        Assert.Equal(-1, calendar.DayOf(0));
        Assert.Equal(-1, calendar.DayOf(Nanos(DateTime.UnixEpoch.AddHours(6)) - 1));
        Assert.Equal(0, calendar.DayOf(Nanos(DateTime.UnixEpoch.AddHours(6))));
        Assert.Equal(DateTime.UnixEpoch.AddHours(-18), calendar.StartOf(-1));
    }
}
