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
    public void A_steady_rate_at_the_limit_is_never_refused()
    {
        var throttle = new MessageThrottle(1000);
        for (long i = 0; i < 100_000; i++)
        {
            Assert.True(throttle.TryTake(i * (Second / 1000)));
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    public void No_limit_takes_everything(int perSecond)
    {
        var throttle = new MessageThrottle(perSecond);
        Assert.All(Enumerable.Range(0, 10_000), _ => Assert.True(throttle.TryTake(0)));
        Assert.Equal(0, throttle.PerSecond);
        Assert.True(default(MessageThrottle).TryTake(long.MinValue));
    }
}
