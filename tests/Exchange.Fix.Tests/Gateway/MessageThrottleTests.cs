using Exchange.Fix.Gateway;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

public class MessageThrottleTests
{
    private const long Second = 1_000_000_000;

    [Fact]
    public void A_quiet_logon_may_send_a_second_s_allowance_at_once_then_one_per_interval()
    {
        var throttle = new MessageThrottle(4);
        long t = 5 * Second;

        Assert.Equal([true, true, true, true, false, false], Enumerable.Range(0, 6).Select(_ => throttle.TryTake(t)));
        Assert.False(throttle.TryTake(t + (Second / 4) - 1));
        Assert.True(throttle.TryTake(t + (Second / 4)));
        Assert.False(throttle.TryTake(t + (Second / 4)));
    }

    [Fact]
    public void Refused_messages_do_not_use_the_allowance_and_a_quiet_second_restores_all_of_it()
    {
        var throttle = new MessageThrottle(2);
        Assert.True(throttle.TryTake(0));
        Assert.True(throttle.TryTake(0));
        for (int i = 0; i < 1000; i++)
        {
            Assert.False(throttle.TryTake(Second / 4));
        }

        Assert.True(throttle.TryTake(Second / 2)); // one interval after the first two: refusals pushed nothing back
        Assert.True(throttle.TryTake(10 * Second));
        Assert.True(throttle.TryTake(10 * Second));
        Assert.False(throttle.TryTake(10 * Second));
    }

    [Fact]
    public void Messages_taken_whatever_the_limit_make_later_ones_wait()
    {
        var throttle = new MessageThrottle(2);
        for (int i = 0; i < 6; i++)
        {
            throttle.Take(0); // three seconds' worth at once
        }

        Assert.False(throttle.TryTake(Second + (Second / 2)));
        Assert.True(throttle.TryTake(2 * Second + (Second / 2)));
    }

    [Theory]
    [InlineData(1000)]
    [InlineData(3)]
    [InlineData(7)]
    [InlineData(MessageThrottle.MaxPerSecond)]
    public void A_steady_rate_at_the_limit_passes_and_a_burst_is_one_second_s_allowance(int perSecond)
    {
        var throttle = new MessageThrottle(perSecond);
        long spacing = (Second + perSecond - 1) / perSecond;
        for (long i = 0; i < 3L * perSecond; i++)
        {
            Assert.True(throttle.TryTake(10 * Second + (i * spacing)));
        }

        // From a quiet start, as fast as possible: the limit at once, then the limit over each second after it.
        var burst = new MessageThrottle(perSecond);
        int atOnce = 0;
        while (burst.TryTake(0))
        {
            atOnce++;
        }

        int overNextSecond = 0;
        for (long t = 1; t <= Second; t += Math.Max(1, spacing / 4))
        {
            while (burst.TryTake(t))
            {
                overNextSecond++;
            }
        }

        Assert.Equal(perSecond, atOnce);
        Assert.InRange(overNextSecond, perSecond - 1, perSecond);
    }

    [Fact]
    public void No_limit_is_unlimited_and_a_limit_past_the_maximum_is_refused()
    {
        Assert.True(new MessageThrottle(0).IsUnlimited);
        Assert.True(new MessageThrottle(-1).IsUnlimited);
        Assert.True(default(MessageThrottle).IsUnlimited);
        Assert.False(new MessageThrottle(1).IsUnlimited);
        Assert.Throws<ArgumentOutOfRangeException>(() => new MessageThrottle(MessageThrottle.MaxPerSecond + 1));
    }
}
