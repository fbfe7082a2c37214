namespace Exchange.Host.Pipeline;

/// <summary>How the venue's threads share the work between socket and socket (configuration <c>Venue:Pipeline:Mode</c>).</summary>
internal enum PipelineMode
{
    /// <summary>
    /// Connections are read by thread-pool tasks; the journaller and the matcher each have a thread on the inbound
    /// ring, the sender one on the outbound ring. Scales with cores; on a small machine every hop is a thread wake-up.
    /// </summary>
    Threaded,

    /// <summary>
    /// One thread (pinned with <c>MatcherCpu</c>, idling as <c>MatcherWait</c> says) polls every socket without blocking,
    /// publishes into the same inbound ring and then runs the same journaller, matcher and sender over it in turn, and
    /// sends each pass's reports in one system call per connection. No hand-off between threads on an order's path:
    /// the latency configuration for machines with few cores.
    /// </summary>
    Inline,
}
