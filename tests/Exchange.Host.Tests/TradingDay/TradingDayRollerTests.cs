using Exchange.Core.Commands;
using Exchange.Fix.Gateway;
using Exchange.Host.Venue;
using Exchange.Tests.Shared;
using Microsoft.Extensions.Logging.Abstractions;
using Xunit;

namespace Exchange.Host.Tests.TradingDay;

/// <summary>When the venue starts a trading day, on an injected clock (days starting at 00:00 UTC).</summary>
public sealed class TradingDayRollerTests
{
    private static readonly DateTime Monday = new(2026, 3, 2, 0, 0, 0, DateTimeKind.Utc);

    private readonly RecordingPublisher _published = new();

    private TradingDayRoller Roller(FakeClock clock) =>
        new(new TradingDayCalendar(TimeSpan.Zero), clock, _published, NullLogger.Instance);

    private static long Nanos(DateTime utc) => TradingDayCalendarTests.Nanos(utc);

    [Fact]
    public void A_journal_from_an_earlier_day_gets_a_new_day_at_start_stamped_with_the_clock()
    {
        var clock = new FakeClock(Nanos(Monday.AddHours(7)));
        TradingDayRoller roller = Roller(clock);

        Assert.True(roller.StartAfterReplay(Nanos(Monday.AddDays(-3).AddHours(16))));

        Command roll = Assert.Single(_published.Commands);
        Assert.Equal(CommandType.NewTradingDay, roll.Type);
        Assert.Equal(Nanos(Monday.AddHours(7)), roll.Timestamp);
        Assert.False(roller.Check());
        Assert.Single(_published.Commands);
    }

    [Theory]
    [InlineData(0)]          // the journal ends today
    [InlineData(-7 * 3600)]  // at today's first second
    public void A_journal_from_today_or_an_empty_one_gets_no_new_day(int secondsBeforeNow)
    {
        var clock = new FakeClock(Nanos(Monday.AddHours(7)));

        Assert.False(Roller(clock).StartAfterReplay(clock.UtcNowNanos + (secondsBeforeNow * 1_000_000_000L)));
        Assert.False(Roller(clock).StartAfterReplay(null));
        Assert.Empty(_published.Commands);
    }

    [Fact]
    public void Crossing_the_boundary_publishes_one_new_day_each_day()
    {
        var clock = new FakeClock(Nanos(Monday.AddHours(23).AddMinutes(59).AddSeconds(59)));
        TradingDayRoller roller = Roller(clock);
        roller.StartAfterReplay(null);
        Assert.False(roller.Check());

        clock.Advance(TimeSpan.FromSeconds(1));
        Assert.True(roller.Check());
        Assert.False(roller.Check());
        clock.Advance(TimeSpan.FromHours(23));
        Assert.False(roller.Check());
        clock.Advance(TimeSpan.FromHours(1));
        Assert.True(roller.Check());

        Assert.Equal([Nanos(Monday.AddDays(1)), Nanos(Monday.AddDays(2))], _published.Commands.Select(c => c.Timestamp));
        Assert.Equal(new TradingDayCalendar(TimeSpan.Zero).DayOf(Nanos(Monday.AddDays(2))), roller.CurrentDay);
    }

    [Fact]
    public void Days_skipped_while_the_clock_jumped_are_one_new_day_and_a_clock_set_back_rolls_nothing()
    {
        var clock = new FakeClock(Nanos(Monday.AddHours(12)));
        TradingDayRoller roller = Roller(clock);
        roller.StartAfterReplay(null);

        clock.Advance(TimeSpan.FromDays(3));
        Assert.True(roller.Check());
        clock.Set(Monday.AddDays(2).AddHours(12));
        Assert.False(roller.Check());
        clock.Set(Monday.AddDays(3).AddHours(13));
        Assert.False(roller.Check());

        Assert.Single(_published.Commands);
    }

    [Fact]
    public void A_journal_stamped_ahead_of_the_clock_keeps_its_day_so_that_day_is_not_started_twice()
    {
        var clock = new FakeClock(Nanos(Monday.AddHours(23)));
        TradingDayRoller roller = Roller(clock);

        Assert.False(roller.StartAfterReplay(Nanos(Monday.AddDays(1).AddHours(1))));
        clock.Advance(TimeSpan.FromHours(2)); // reaches the journal's day
        Assert.False(roller.Check());
        clock.Advance(TimeSpan.FromDays(1));
        Assert.True(roller.Check());
        Assert.Single(_published.Commands);
    }

    [Fact]
    public void A_refused_publication_leaves_the_day_as_it_was_and_the_next_check_tries_again()
    {
        var clock = new FakeClock(Nanos(Monday.AddHours(12)));
        TradingDayRoller roller = Roller(clock);
        roller.StartAfterReplay(null);
        long monday = roller.CurrentDay;
        clock.Advance(TimeSpan.FromDays(1));

        _published.Accepting = false;
        Assert.False(roller.Check());
        Assert.Equal(monday, roller.CurrentDay);
        _published.Accepting = true;
        Assert.True(roller.Check());
        Assert.Equal(monday + 1, roller.CurrentDay);
    }

    private sealed class RecordingPublisher : ICommandPublisher
    {
        public List<Command> Commands { get; } = [];

        public bool Accepting { get; set; } = true;

        public bool TryPublish(in Command command)
        {
            if (!Accepting)
            {
                return false;
            }

            Commands.Add(command);
            return true;
        }
    }
}
