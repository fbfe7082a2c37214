namespace Exchange.Host.Pipeline;

/// <summary>How a processor waits when its ring is empty (configured per processor by name).</summary>
internal enum WaitStrategyKind
{
    /// <summary>Spins on the sequence: lowest latency, burns a whole core. Only for a dedicated (pinned) core.</summary>
    BusySpin,

    /// <summary>Spins briefly, then yields the core on each retry: low latency, gives way to runnable threads.</summary>
    Yielding,

    /// <summary>Spins, yields, then sleeps with growing back-off: little CPU when idle, higher wake-up latency.</summary>
    Sleeping,

    /// <summary>Sleeps on a monitor signalled by publishers: no CPU when idle, highest wake-up latency.</summary>
    Blocking,
}
