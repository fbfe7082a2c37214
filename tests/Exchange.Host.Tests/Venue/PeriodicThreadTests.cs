using Exchange.Host.Venue;
using Xunit;

namespace Exchange.Host.Tests.Venue;

public sealed class PeriodicThreadTests
{
    [Fact]
    public void Runs_its_work_repeatedly_on_a_thread_of_its_own_and_never_after_stop()
    {
        int runs = 0;
        int callerThread = Environment.CurrentManagedThreadId;
        int workThread = 0;
        var periodic = new PeriodicThread("test-timer", TimeSpan.FromMilliseconds(5), () =>
        {
            workThread = Environment.CurrentManagedThreadId;
            Interlocked.Increment(ref runs);
        });
        periodic.Start();

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref runs) >= 3, TimeSpan.FromSeconds(10)));
        Assert.True(periodic.Stop(TimeSpan.FromSeconds(10)));
        int atStop = Volatile.Read(ref runs);
        Thread.Sleep(50);

        Assert.Equal(atStop, Volatile.Read(ref runs));
        Assert.NotEqual(callerThread, workThread);
        Assert.True(periodic.Stop(TimeSpan.Zero)); // a second stop finds it ended
    }

    /// <summary>Stop reports whether a run in progress ended within the wait: the venue disposes what the work uses only then.</summary>
    [Fact]
    public void Stop_waits_for_a_run_in_progress_and_says_when_it_has_not_ended()
    {
        using var inWork = new ManualResetEventSlim(false);
        using var release = new ManualResetEventSlim(false);
        var periodic = new PeriodicThread("test-timer", TimeSpan.FromMilliseconds(1), () =>
        {
            inWork.Set();
            release.Wait();
        });
        periodic.Start();
        Assert.True(inWork.Wait(TimeSpan.FromSeconds(10)));

        Assert.False(periodic.Stop(TimeSpan.FromMilliseconds(50)));

        release.Set();
        Assert.True(periodic.Stop(TimeSpan.FromSeconds(10)));
    }
}
