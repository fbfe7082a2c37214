using System.Diagnostics;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

// Logging every session out when the venue stops. Bounded throughout: a session's lock may be held by a thread stuck in
// a store write, and the stop must go on without that session.
public sealed partial class FixGateway
{
    /// <summary>How long, once the logout timeout is over, the sessions' locks are waited for to cut their clients off.</summary>
    private static readonly TimeSpan CutOffLockWait = TimeSpan.FromMilliseconds(100);

    /// <summary>The least a session busy on the first pass gets, however little of the time is left (see <see cref="ForEachSession"/>).</summary>
    private static readonly TimeSpan BusySessionWait = TimeSpan.FromMilliseconds(50);

    public async Task LogoutAllAsync(string text, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(text);
        _stopping = true;
        byte[] ascii = System.Text.Encoding.ASCII.GetBytes(text);
        long deadline = DeadlineAfter(timeout);
        ForEachSession(deadline, "not logged out", gs =>
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
        });

        while (Stopwatch.GetTimestamp() < deadline && Array.Exists(_sessions, s => s.Session.State != SessionState.Disconnected))
        {
            await Task.Delay(10).ConfigureAwait(false);
        }

        // Clients that did not answer in time are cut off; their read loops then release the sessions.
        ForEachSession(DeadlineAfter(CutOffLockWait), "its connection not closed here", gs => gs.Transport?.Close("logout timed out"));
        foreach (ConnectionHandler pending in _awaitingLogon.Keys)
        {
            pending.Transport.Close("venue is stopping");
        }
    }

    /// <summary>
    /// Runs <paramref name="action"/> under each session's lock: first for every session whose lock is free, then for
    /// the busy ones, each waiting for what is left until <paramref name="deadline"/> but at least
    /// <see cref="BusySessionWait"/>. So one stuck session neither holds the others up nor uses up their time, and a
    /// session only briefly busy (the sender encoding a report) is still served. One still busy is skipped and logged.
    /// </summary>
    private void ForEachSession(long deadline, string skipped, Action<GatewaySession> action)
    {
        List<GatewaySession>? busy = null;
        foreach (GatewaySession gs in _sessions)
        {
            if (gs.Lock.TryEnter())
            {
                RunLocked(gs, action);
            }
            else
            {
                (busy ??= []).Add(gs);
            }
        }

        foreach (GatewaySession gs in busy ?? [])
        {
            TimeSpan left = Remaining(deadline);
            if (gs.Lock.TryEnter(left > BusySessionWait ? left : BusySessionWait))
            {
                RunLocked(gs, action);
            }
            else
            {
                _services.Log.Warn($"session {gs.Session.Config.SenderCompID}->{gs.Session.Config.TargetCompID}: busy in another thread while the venue stopped; {skipped}");
            }
        }
    }

    /// <summary>Runs <paramref name="action"/> and releases the session's lock, which the caller took, whatever happens.</summary>
    private static void RunLocked(GatewaySession gs, Action<GatewaySession> action)
    {
        try
        {
            action(gs);
        }
        finally
        {
            gs.Lock.Exit();
        }
    }

    private static long DeadlineAfter(TimeSpan timeout) => Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);

    /// <summary>What is left until <paramref name="deadline"/> (a Stopwatch timestamp), at least zero.</summary>
    private static TimeSpan Remaining(long deadline)
    {
        long ticks = deadline - Stopwatch.GetTimestamp();
        return ticks <= 0 ? TimeSpan.Zero : TimeSpan.FromSeconds((double)ticks / Stopwatch.Frequency);
    }
}
