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
}
