using Exchange.Fix.Gateway;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

public sealed class SessionLockTests
{
    /// <summary>Two threads, started together, incrementing a plain field under the lock lose no increment.</summary>
    [Fact]
    public void Excludes_other_threads()
    {
        var gate = new SessionLock();
        long count = 0;
        const int PerThread = 1_000_000;
        using var start = new Barrier(2);
        void Work()
        {
            start.SignalAndWait();
            for (int i = 0; i < PerThread; i++)
            {
                using (gate.EnterScope())
                {
                    // A read and a later write, so that two threads inside at once would lose increments.
                    long seen = Volatile.Read(ref count);
                    Volatile.Write(ref count, seen + 1);
                }
            }
        }

        var other = new Thread(Work);
        other.Start();
        Work();
        other.Join();

        Assert.Equal(2L * PerThread, count);
    }

    /// <summary>Not re-entrant by design: a second enter on the holding thread is a bug, and must throw, not hang (run
    /// on a thread of its own so that a lock that hangs fails the test instead of stalling the run).</summary>
    [Fact]
    public void Entering_again_on_the_holding_thread_throws_instead_of_deadlocking()
    {
        var gate = new SessionLock();
        Exception? thrown = null;
        bool heldInside = false;
        bool triedAgain = true;
        var attempt = new Thread(() =>
        {
            using (gate.EnterScope())
            {
                heldInside = gate.IsHeldByCurrentThread;
                triedAgain = gate.TryEnter();
                try
                {
                    gate.Enter();
                }
                catch (InvalidOperationException e)
                {
                    thrown = e;
                }
            }
        }) { IsBackground = true };
        attempt.Start();

        Assert.True(attempt.Join(TimeSpan.FromSeconds(10)), "entering the lock again hung");
        Assert.True(heldInside);
        Assert.False(triedAgain);
        Assert.NotNull(thrown);
        Assert.True(gate.TryEnter()); // released by the scope despite the failed second enter
        gate.Exit();
    }

    [Fact]
    public void TryEnter_with_a_timeout_gives_up_while_another_thread_holds_it_and_succeeds_once_released()
    {
        var gate = new SessionLock();
        using var held = new ManualResetEventSlim(false);
        using var release = new ManualResetEventSlim(false);
        var holder = new Thread(() =>
        {
            using (gate.EnterScope())
            {
                held.Set();
                release.Wait();
            }
        });
        holder.Start();
        Assert.True(held.Wait(TimeSpan.FromSeconds(10)));

        Assert.False(gate.TryEnter());
        Assert.False(gate.TryEnter(TimeSpan.FromMilliseconds(20)));

        release.Set();
        Assert.True(gate.TryEnter(TimeSpan.FromSeconds(10)));
        gate.Exit();
        holder.Join();
    }
}
