using Exchange.Fix.Gateway;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// <see cref="FixGateway.LogoutAllAsync"/> as the venue's stop calls it: bounded even when a session's lock is held by a
/// thread that does not let go (stuck in a store write), and never leaving a lock held behind it.
/// </summary>
public sealed class GatewayLogoutAllTests
{
    [Fact]
    public async Task A_session_another_thread_holds_throughout_is_skipped_and_the_others_are_still_logged_out()
    {
        // The stuck session first: it must neither hold up nor use up the time of the one after it.
        using var h = new GatewayHarness(sessions: [new SessionConfig("VENUE", "CLIENT2"), new SessionConfig("VENUE", "CLIENT1")]);
        h.Send("A", "98=0|108=30|");
        Assert.Equal("A", Assert.Single(h.TakeSent())[35]);
        Assert.True(h.Gateway.IsLoggedOn(1));
        GatewaySession stuck = h.Gateway.Find("VENUE"u8, "CLIENT2"u8)!;
        using var held = new ManualResetEventSlim(false);
        using var release = new ManualResetEventSlim(false);
        var holder = new Thread(() =>
        {
            stuck.Lock.Enter();
            held.Set();
            release.Wait(TimeSpan.FromSeconds(30));
            stuck.Lock.Exit();
        });
        holder.Start();
        Assert.True(held.Wait(TimeSpan.FromSeconds(10)));

        await h.Gateway.LogoutAllAsync("venue closing", TimeSpan.FromMilliseconds(200)).WaitAsync(TimeSpan.FromSeconds(10));
        release.Set();
        holder.Join();

        Dictionary<int, string> logout = Assert.Single(h.TakeSent());
        Assert.Equal(("5", "venue closing"), (logout[35], logout[58]));
        Assert.Contains(h.Log.Lines, line => line.Contains("warn: session VENUE->CLIENT2: busy in another thread while the venue stopped; not logged out", StringComparison.Ordinal));
        Assert.DoesNotContain(h.Log.Lines, line => line.Contains("session VENUE->CLIENT1", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_logout_whose_send_throws_leaves_the_session_lock_free()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Connection.FailFlush = true;

        await Assert.ThrowsAsync<IOException>(() => h.Gateway.LogoutAllAsync("venue closing", TimeSpan.FromMilliseconds(50)));

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
}
