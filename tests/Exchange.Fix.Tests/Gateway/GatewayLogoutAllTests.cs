using Exchange.Fix.Gateway;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// <see cref="FixGateway.LogoutAllAsync"/> as the venue's stop calls it: bounded even when a session's lock is held by a
/// thread that does not let go (stuck in a store write), fair to sessions only briefly busy, and never leaving a lock
/// held behind it.
/// </summary>
public sealed class GatewayLogoutAllTests
{
    [Fact]
    public async Task A_stuck_session_is_skipped_and_one_busy_only_for_a_while_is_still_logged_out()
    {
        // The stuck session first in the array: it must neither hold up the one after it nor use up that one's time.
        using var h = new GatewayHarness(sessions: [new SessionConfig("VENUE", "CLIENT2"), new SessionConfig("VENUE", "CLIENT1")]);
        h.Send("A", "98=0|108=30|");
        Assert.Equal("A", Assert.Single(h.TakeSent())[35]);
        Assert.True(h.Gateway.IsLoggedOn(1));
        using var release = new ManualResetEventSlim(false);
        using Holder stuck = Holder.Start(h.Gateway.Find("VENUE"u8, "CLIENT2"u8)!, firstHold: null, release);

        // CLIENT1's lock is busy when the logout starts, free from 0.2 s to 1.2 s of its 2 s, then busy again to the end.
        using Holder busy = Holder.Start(h.Gateway.Find("VENUE"u8, "CLIENT1"u8)!, firstHold: TimeSpan.FromMilliseconds(200), release, gap: TimeSpan.FromSeconds(1));

        await h.Gateway.LogoutAllAsync("venue closing", TimeSpan.FromSeconds(2)).WaitAsync(TimeSpan.FromSeconds(20));
        release.Set();

        Dictionary<int, string> logout = Assert.Single(h.TakeSent());
        Assert.Equal(("5", "venue closing"), (logout[35], logout[58]));
        Assert.Contains(h.Log.Lines, line => line.Contains("warn: session VENUE->CLIENT2: busy in another thread throughout the stop's logout; skipped", StringComparison.Ordinal));
        Assert.DoesNotContain(h.Log.Lines, line => line.Contains("VENUE->CLIENT1: busy in another thread throughout the stop's logout", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_logout_whose_send_throws_is_logged_and_leaves_the_session_lock_free()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Connection.FailFlush = true;

        await h.Gateway.LogoutAllAsync("venue closing", TimeSpan.FromMilliseconds(50));

        Assert.Contains(h.Log.Lines, line => line.Contains("warn: session VENUE->CLIENT1: the stop's logout failed: IOException", StringComparison.Ordinal));

        // Another thread (the sender, the session timer) can still take the lock.
        GatewaySession gs = h.Gateway.Find("VENUE"u8, "CLIENT1"u8)!;
        bool taken = await Task.Run(() =>
        {
            if (!gs.Lock.TryEnter(TimeSpan.FromSeconds(5)))
            {
                return false;
            }

            gs.Lock.Exit();
            return true;
        });
        Assert.True(taken);
    }

    /// <summary>A thread holding a session's lock: for <c>firstHold</c> (or until released), then, after <c>gap</c>, again until released.</summary>
    private sealed class Holder : IDisposable
    {
        private readonly Thread _thread;

        private Holder(Thread thread) => _thread = thread;

        public static Holder Start(GatewaySession gs, TimeSpan? firstHold, ManualResetEventSlim release, TimeSpan? gap = null)
        {
            using var holding = new ManualResetEventSlim(false);
            var thread = new Thread(() =>
            {
                gs.Lock.Enter();
                holding.Set();
                if (firstHold is { } hold)
                {
                    Thread.Sleep(hold);
                    gs.Lock.Exit();
                    Thread.Sleep(gap ?? TimeSpan.Zero);
                    gs.Lock.Enter();
                }

                release.Wait(TimeSpan.FromSeconds(30));
                gs.Lock.Exit();
            })
            { IsBackground = true };
            thread.Start();
            Assert.True(holding.Wait(TimeSpan.FromSeconds(10)));
            return new Holder(thread);
        }

        public void Dispose() => _thread.Join(TimeSpan.FromSeconds(30));
    }
}
