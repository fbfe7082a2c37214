namespace Exchange.Fix.Session;

/// <summary>Time-driven rules, evaluated only when the owner calls <see cref="Poll"/>.</summary>
public sealed partial class FixSession
{
    /// <summary>How long an outstanding ResendRequest may go without progress before it is repeated, when HeartBtInt is 0.</summary>
    private const long ResendPatienceWithoutHeartbeatNanos = 30 * NanosPerSecond;

    /// <summary>
    /// Fires due timers: logon timeout, logout timeout (ours, and a client's Logout waiting behind a gap), Heartbeat
    /// after HeartBtInt of outbound silence, TestRequest after 1.2×HeartBtInt of inbound silence, disconnect when that
    /// TestRequest is 1.2×HeartBtInt old and unanswered (2.4× of silence in all), a ResendRequest again after
    /// HeartBtInt (30 s when HeartBtInt is 0) without progress on an outstanding one (<see cref="CheckResendProgress"/>).
    /// Call it periodically (e.g. every 100 ms) from the thread that drives the session; each call costs a clock read
    /// and a few comparisons.
    /// </summary>
    public void Poll()
    {
        SessionState state = _state;
        if (state == SessionState.Disconnected)
        {
            return;
        }

        long now = _clock.MonotonicNanos;
        if (state == SessionState.AwaitingLogon)
        {
            if (now - _boundAtMono >= _config.LogonTimeout.Ticks * 100)
            {
                Unbind(DisconnectReason.LogonTimeout, closeTransport: true);
            }

            return;
        }

        if (state == SessionState.LogoutSent)
        {
            // Waiting for the Logout reply: nothing more is sent unless asked for (a ResendRequest, a TestRequest), and
            // the logout timeout, not the heartbeat, bounds the wait.
            if (now - _logoutSentAtMono >= _config.LogoutTimeout.Ticks * 100)
            {
                Unbind(DisconnectReason.LogoutTimeout, closeTransport: true);
            }

            return;
        }

        if (_clientLogoutPending && now - _clientLogoutAtMono >= _config.LogoutTimeout.Ticks * 100)
        {
            // The client's Logout came ahead of a gap that its replay has not filled in time: answer it anyway.
            LogoutAndDisconnect("Logout answered before the gap below it was filled"u8, DisconnectReason.LogoutCompleted);
            return;
        }

        if (_heartBtInt <= 0)
        {
            CheckResendProgress(now, ResendPatienceWithoutHeartbeatNanos);
            return;
        }

        long interval = _heartBtInt * NanosPerSecond;
        long probeAfter = interval * 6 / 5;
        if (_testRequestOutstanding)
        {
            // Only an unanswered probe ends the session. Timing from the probe rather than from the last message
            // received keeps a late poll (a GC pause, a starved timer thread) from dropping a client that was never
            // asked: with timely polls the two rules agree, disconnecting at 2.4×HeartBtInt of silence.
            if (now - _testRequestSentAtMono >= probeAfter)
            {
                Unbind(DisconnectReason.HeartbeatTimeout, closeTransport: true);
                return;
            }
        }
        else if (now - _lastReceivedMono >= probeAfter)
        {
            _testRequestOutstanding = true;
            _testRequestSentAtMono = now;
            SendTestRequest();
        }

        if (now - _lastSentMono >= interval)
        {
            SendHeartbeat(default);
        }

        CheckResendProgress(now, interval);
    }
}
