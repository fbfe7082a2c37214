using System.Diagnostics;
using Microsoft.Extensions.Logging;

namespace Exchange.Host.Venue;

// Stopping: drain the rings, log the sessions out, and close each resource only once no thread still uses it.
internal sealed partial class VenueService
{
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (Interlocked.Exchange(ref _stopped, 1) != 0)
        {
            return;
        }

        LogStopping(_logger);
        StartStopBudget();
        if (_listener is not null)
        {
            await _listener.DisposeAsync().ConfigureAwait(false);
            _listener = null;
        }

        // Stop taking orders (later ones are rejected as the venue stopping), then let the pipeline finish what it
        // accepted while the sessions are still logged on: every accepted order's report goes out before the Logout,
        // instead of only into the session store.
        if (_ingress is not null && !WaitWithinStopBudget(LogoutTimeout, _ingress.StopAccepting))
        {
            // A connection is still waiting for room in a ring its consumers no longer empty: the drain below will time
            // out too, and that order was never accepted (nor journalled), so the client is owed nothing for it.
            LogPublisherStuck(_logger, Stopwatch.GetElapsedTime(_stopStarted).TotalSeconds);
        }

        await WaitWithinStopBudgetAsync(DrainTimeout, WaitForPipelineDrainedAsync).ConfigureAwait(false);

        if (_gateway is not null)
        {
            try
            {
                await _gateway.LogoutAllAsync("venue shutting down", WithinStopBudget(LogoutTimeout)).ConfigureAwait(false);
            }
#pragma warning disable CA1031 // A failed logout must not skip draining the rings and closing the journal.
            catch (Exception exception)
#pragma warning restore CA1031
            {
                LogLogoutFailed(_logger, exception);
            }
        }

        await _connectionsStop.CancelAsync().ConfigureAwait(false);
        _poller?.CloseAll();
        if (!await WaitWithinStopBudgetAsync(LogoutTimeout, WaitForConnectionsEndedAsync).ConfigureAwait(false))
        {
            LogConnectionsLingering(_logger, _connections.Count);
        }

        long gatewayRejects = _gateway?.RejectsSent ?? 0;
        Cleanup();
        if (_stopWaitCut)
        {
            LogStopBudgetSpent(_logger, StopBudget.TotalSeconds);
        }

        LogStopped(_logger, Counters.Orders, Counters.Trades, Counters.Rejects, gatewayRejects);
    }

    /// <summary>
    /// Waits until the rings' consumers (journaller, matcher, sender; their own threads or the polling thread) have
    /// passed every published slot. The matcher publishes a command's events before it moves past the command, so an
    /// empty inbound ring seen before an empty outbound ring means every report has been handed to its session.
    /// </summary>
    private async Task<bool> WaitForPipelineDrainedAsync(TimeSpan timeout)
    {
        long deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        while ((_inbound?.Occupancy ?? 0) != 0 || (_outbound?.Occupancy ?? 0) != 0)
        {
            if (Stopwatch.GetTimestamp() >= deadline)
            {
                LogDrainIncomplete(_logger, "inbound or outbound, before logout");
                return false;
            }

            await Task.Delay(1).ConfigureAwait(false);
        }

        return true;
    }

    /// <summary>Waits until every connection task has ended; false when some still run after <paramref name="timeout"/>.</summary>
    private async Task<bool> WaitForConnectionsEndedAsync(TimeSpan timeout)
    {
        try
        {
            await Task.WhenAll(_connections.Values).WaitAsync(timeout, CancellationToken.None).ConfigureAwait(false);
            return true;
        }
        catch (TimeoutException)
        {
            return false;
        }
    }

    /// <summary>Starts the clock of <see cref="StopBudget"/> unless the stop (or a cleanup) already did.</summary>
    private void StartStopBudget()
    {
        if (_stopStarted == 0)
        {
            _stopStarted = Stopwatch.GetTimestamp();
        }
    }

    /// <summary><paramref name="limit"/>, cut to what is left of the stop's budget, but not below <see cref="MinimumStopWait"/>.</summary>
    private TimeSpan WithinStopBudget(TimeSpan limit)
    {
        TimeSpan left = StopBudget - Stopwatch.GetElapsedTime(_stopStarted);
        if (left >= limit)
        {
            return limit;
        }

        TimeSpan floor = limit < MinimumStopWait ? limit : MinimumStopWait;
        return left > floor ? left : floor;
    }

    /// <summary>
    /// Runs one of the stop's waits for <see cref="WithinStopBudget"/>'s time; returns whether it finished. One that
    /// ran out of a time the budget had cut is recorded for the closing log (<see cref="_stopWaitCut"/>).
    /// </summary>
    private bool WaitWithinStopBudget(TimeSpan limit, Func<TimeSpan, bool> wait)
    {
        TimeSpan given = WithinStopBudget(limit);
        return RecordWait(wait(given), given, limit);
    }

    /// <inheritdoc cref="WaitWithinStopBudget"/>
    private async Task<bool> WaitWithinStopBudgetAsync(TimeSpan limit, Func<TimeSpan, Task<bool>> wait)
    {
        TimeSpan given = WithinStopBudget(limit);
        return RecordWait(await wait(given).ConfigureAwait(false), given, limit);
    }

    private bool RecordWait(bool finished, TimeSpan given, TimeSpan limit)
    {
        _stopWaitCut |= !finished && given < limit;
        return finished;
    }

    /// <summary>Releases what a failed or skipped stop left behind (the host disposes services after stopping them).</summary>
    public void Dispose()
    {
        Cleanup();
        _connectionsStop.Dispose();
    }

    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>Stops whatever was started, in dependency order; safe to call more than once and after a failed start.</summary>
    private void Cleanup()
    {
        StartStopBudget();
        // Who still runs and may write to the session stores (the gateway) or the journal: null when nobody does.
        string? storesUser = null;
        string? journalUser = null;
        if (_pollThread is not null)
        {
            // Wait for a poll in progress: the gateway is disposed below.
            if (!WaitWithinStopBudget(LogoutTimeout, _pollThread.Stop))
            {
                storesUser = "the session timer's poll";
            }

            _pollThread = null;
        }

        if (_listener is not null)
        {
            _listener.DisposeAsync().AsTask().GetAwaiter().GetResult();
            _listener = null;
        }

        if (_ingress is not null)
        {
            WaitWithinStopBudget(LogoutTimeout, _ingress.StopAccepting);
        }

        // A thread that does not end in time may still be writing through the journal's or a session store's memory
        // map: unmapping under it would crash the process at its next write. Such resources are left to the process
        // exit instead (the mapped pages are in the page cache, so what was written still reaches the files; only the
        // final trim and flush are skipped, and recovery reads the zeroed tail as the clean end).
        bool connectionTasks = _poller is null; // Polled connections are served by the polling thread, not tasks.
        if (_poller is not null)
        {
            // Inline: the polling thread drains both rings itself before it ends.
            if (!WaitWithinStopBudget(DrainTimeout, _poller.Stop))
            {
                LogDrainIncomplete(_logger, "inbound");
                _gate?.Abort();
                storesUser = journalUser = "the polling thread";
            }

            if (_poller.Passes is { } passes)
            {
                LogPollerPasses(_logger, passes.PassesOver(0), passes.SlowPassMilliseconds, passes.PassesOver(1), passes.PassesOver(2));
            }

            _poller = null;
        }

        if (_inbound is not null)
        {
            bool drained = WaitWithinStopBudget(DrainTimeout, _inbound.DrainAndStop);
            if (!drained || _journaller?.Fault is not null)
            {
                LogDrainIncomplete(_logger, "inbound");
                _gate?.Abort();
            }

            if (!drained && _journaller is not null && !_journaller.Join(TimeSpan.Zero))
            {
                journalUser ??= "the journaller";
            }

            _inbound = null;
        }

        if (_outbound is not null)
        {
            if (!WaitWithinStopBudget(DrainTimeout, _outbound.DrainAndStop))
            {
                LogDrainIncomplete(_logger, "outbound");
                _gate?.Abort();
                if (!WaitWithinStopBudget(DrainTimeout, _outbound.Halt))
                {
                    storesUser ??= "the sender";
                }
            }

            _outbound = null;
        }

        if (journalUser is not null)
        {
            LogLeftOpen(_logger, "the journal", journalUser);
        }
        else
        {
            _journal?.Dispose();
        }

        _journal = null;
        if (_marketData is not null && !WaitWithinStopBudget(DrainTimeout, _marketData.Stop))
        {
            storesUser ??= "the market-data publisher";
        }

        _marketData = null;
        if (connectionTasks && !_connections.IsEmpty)
        {
            storesUser ??= $"{_connections.Count} connections";
        }

        // Last user of the gateway gone (sender, market data, timer, connections): close its session stores (flushes
        // sequence numbers).
        if (storesUser is not null)
        {
            LogLeftOpen(_logger, "the session stores", storesUser);
        }
        else
        {
            (_gateway as IDisposable)?.Dispose();
        }

        _gateway = null;
        _metrics?.Dispose();
        _metrics = null;
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Polling thread since start: {Over100Us} passes over 100 us ({Milliseconds:F1} ms in all), {Over1Ms} over 1 ms, {Over10Ms} over 10 ms")]
    private static partial void LogPollerPasses(ILogger logger, long over100Us, double milliseconds, long over1Ms, long over10Ms);

    [LoggerMessage(Level = LogLevel.Warning, Message = "A connection was still publishing into a full inbound ring {Seconds} s after the stop began; its order is not accepted")]
    private static partial void LogPublisherStuck(ILogger logger, double seconds);

    [LoggerMessage(Level = LogLevel.Error, Message = "The {Ring} ring did not drain in time; unsent reports were dropped")]
    private static partial void LogDrainIncomplete(ILogger logger, string ring);

    [LoggerMessage(Level = LogLevel.Error, Message = "Left open until the process exits: {Resource}, because {User} has not stopped and may still write there")]
    private static partial void LogLeftOpen(ILogger logger, string resource, string user);

    [LoggerMessage(Level = LogLevel.Error, Message = "Logging sessions out failed")]
    private static partial void LogLogoutFailed(ILogger logger, Exception exception);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Count} connections still open after logout; closing them")]
    private static partial void LogConnectionsLingering(ILogger logger, int count);

    [LoggerMessage(Level = LogLevel.Error, Message = "The stop's waits ran into its limit of {Seconds} s in all: the later ones were cut short, and what they had not stopped is left to the process exit")]
    private static partial void LogStopBudgetSpent(ILogger logger, double seconds);

    [LoggerMessage(Level = LogLevel.Information, Message = "Exchange venue stopping")]
    private static partial void LogStopping(ILogger logger);

    [LoggerMessage(Level = LogLevel.Information, Message = "Exchange venue stopped during its start, before it accepted connections (the journal it replayed is closed as it was)")]
    private static partial void LogStoppedDuringStart(ILogger logger);

    [LoggerMessage(Level = LogLevel.Critical, Message = "Exchange venue did not finish starting within the host's StartupTimeout (startupTimeoutSeconds), and no stop was requested; the start was abandoned before it accepted connections (the journal it replayed is closed as it was)")]
    private static partial void LogStartTimedOut(ILogger logger);

    [LoggerMessage(Level = LogLevel.Information, Message = "Exchange venue stopped: {Orders} orders, {Trades} trades, {Rejects} rejects by the matcher, {GatewayRejects} by the gateway")]
    private static partial void LogStopped(ILogger logger, long orders, long trades, long rejects, long gatewayRejects);
}
