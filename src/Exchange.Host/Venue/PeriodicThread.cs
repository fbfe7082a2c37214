namespace Exchange.Host.Venue;

/// <summary>
/// Runs an action every interval on a thread of its own. The Threaded venue's session timers (heartbeats, test
/// requests, logon and logout timeouts) run here rather than on a thread-pool timer, because a starved pool delays its
/// timers: one fired more than 1.4 s late in a parallel test run, long enough for a client to miss its heartbeats.
/// </summary>
/// <remarks>The action must not throw (<see cref="VenueService"/> logs its failures itself); one that does ends the
/// thread, as any unhandled exception ends the process.</remarks>
internal sealed class PeriodicThread
{
    private readonly TimeSpan _interval;
    private readonly Action _work;
    private readonly ManualResetEventSlim _stop = new(false);
    private readonly Thread _thread;

    public PeriodicThread(string name, TimeSpan interval, Action work)
    {
        _interval = interval;
        _work = work;
        _thread = new Thread(Run) { IsBackground = true, Name = name };
    }

    public void Start() => _thread.Start();

    /// <summary>
    /// Asks the thread to stop and waits up to <paramref name="timeout"/> for a run in progress to end; true when the
    /// thread has ended, so nothing it touches is used any more. Safe to call more than once.
    /// </summary>
    public bool Stop(TimeSpan timeout)
    {
        _stop.Set();
        return !_thread.IsAlive || _thread.Join(timeout);
    }

    private void Run()
    {
        while (!_stop.Wait(_interval))
        {
            _work();
        }
    }
}
