using System.Diagnostics;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

// Logging every session out when the venue stops. Bounded throughout: a session's lock may be held by a thread stuck in
// a store write, and the stop must go on without that session.
public sealed partial class FixGateway
{
    /// <summary>How long, once the logout timeout is over, the sessions' locks are waited for to cut their clients off.</summary>
    private static readonly TimeSpan CutOffLockWait = TimeSpan.FromMilliseconds(100);

    /// <summary>How long busy sessions are still tried for when the step's own time is already over (see <see cref="ForEachSessionAsync"/>).</summary>
    private static readonly TimeSpan BusySessionWait = TimeSpan.FromMilliseconds(50);

    public async Task LogoutAllAsync(string text, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(text);
        _stopping = true;
        byte[] ascii = System.Text.Encoding.ASCII.GetBytes(text);
        long deadline = DeadlineAfter(timeout);
        await ForEachSessionAsync(deadline, "logout", gs =>
        {
            ConnectionTransport? transport = gs.Transport;
            try
            {
                gs.Session.Logout(ascii);
            }
            finally
            {
                transport?.EndSection();
            }
        }).ConfigureAwait(false);

        while (Stopwatch.GetTimestamp() < deadline && Array.Exists(_sessions, s => s.Session.State != SessionState.Disconnected))
        {
            await Task.Delay(10).ConfigureAwait(false);
        }

        // Clients that did not answer in time are cut off; their read loops then release the sessions.
        await ForEachSessionAsync(DeadlineAfter(CutOffLockWait), "cut-off", gs => gs.Transport?.Close("logout timed out")).ConfigureAwait(false);
        foreach (ConnectionHandler pending in _awaitingLogon.Keys)
        {
            pending.Transport.Close("venue is stopping");
        }
    }

    /// <summary>
    /// Runs <paramref name="action"/> under each session's lock, never waiting on a lock: every free session at once,
    /// then the busy ones in rounds until <paramref name="deadline"/> (at least one short round), each served as soon
    /// as its lock is free. So a session only briefly busy (the sender encoding a report) is still served, and a stuck
    /// one costs the others nothing; one still busy at the end is skipped and logged. A failure in one session (its
    /// send throwing) is logged and the others are still served.
    /// </summary>
    /// <param name="step">What <paramref name="action"/> is, for the log.</param>
    private async Task ForEachSessionAsync(long deadline, string step, Action<GatewaySession> action)
    {
        List<GatewaySession> busy = [];
        foreach (GatewaySession gs in _sessions)
        {
            if (!TryRunLocked(gs, step, action))
            {
                busy.Add(gs);
            }
        }

        long end = Math.Max(deadline, DeadlineAfter(BusySessionWait));
        while (busy.Count > 0 && Stopwatch.GetTimestamp() < end)
        {
            // Each attempt takes and releases its lock without awaiting, as a Lock must be released by its owner.
            await Task.Delay(1).ConfigureAwait(false);
            busy.RemoveAll(gs => TryRunLocked(gs, step, action));
        }

        foreach (GatewaySession gs in busy)
        {
            _services.Log.Warn($"{gs.Name}: busy in another thread throughout the stop's {step}; skipped");
        }
    }

    /// <summary>False when the session's lock is held elsewhere; otherwise runs <paramref name="action"/> under it and releases it, whatever happens.</summary>
    private bool TryRunLocked(GatewaySession gs, string step, Action<GatewaySession> action)
    {
        if (!gs.Lock.TryEnter())
        {
            return false;
        }

        try
        {
            action(gs);
        }
#pragma warning disable CA1031 // One session's failed send must not keep the others from their Logout.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            _services.Log.Warn($"{gs.Name}: the stop's {step} failed: {exception.GetType().Name}: {exception.Message}");
        }
        finally
        {
            gs.Lock.Exit();
        }

        return true;
    }

    private static long DeadlineAfter(TimeSpan timeout) => Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
}
