namespace Exchange.LoadClient.Options;

/// <summary>How orders are sent and which replies are measured (see README.md).</summary>
internal enum LoadMode
{
    /// <summary>One order in flight: send, wait for its first ExecutionReport, repeat.</summary>
    Sync,

    /// <summary>Orders sent on a fixed schedule; latency from the intended send time (coordinated omission corrected).</summary>
    Rate,

    /// <summary>Sender and reader run concurrently, at most a window of orders in flight: maximum throughput.</summary>
    Pipelined,

    /// <summary>A fixed-rate (or pipelined, with rate 0) background flow; only every K-th order is measured.</summary>
    Mixed,
}
