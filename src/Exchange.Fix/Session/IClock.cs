namespace Exchange.Fix.Session;

/// <summary>
/// The session's only source of time, injected so every timer rule has a deterministic test. Wall-clock time is used
/// for SendingTime (52) and its tolerance check; monotonic time drives heartbeat, test-request, logon and logout
/// timers so a wall-clock step never fires or suppresses them.
/// </summary>
public interface IClock
{
    /// <summary>Wall-clock UTC time in nanoseconds since the Unix epoch.</summary>
    long UtcNowNanos { get; }

    /// <summary>Monotonic time in nanoseconds from an arbitrary origin.</summary>
    long MonotonicNanos { get; }

    /// <summary>
    /// Both times at one instant, for what needs both (a message received: its receive time and the session's
    /// liveness; a message sent: its SendingTime and the heartbeat timer). A clock whose reads cost something derives
    /// one from the other, so each message pays one read (<see cref="SystemClock.Now"/>).
    /// </summary>
    ClockReading Now => new(UtcNowNanos, MonotonicNanos);
}

/// <summary>Wall-clock and monotonic time taken together (see <see cref="IClock.Now"/>).</summary>
public readonly record struct ClockReading(long UtcNanos, long MonotonicNanos);
