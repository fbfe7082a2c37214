namespace Exchange.LoadClient.Options;

/// <summary>Everything a run needs, filled by <see cref="ArgumentParser"/>; defaults match the venue's defaults.</summary>
internal sealed record LoadClientOptions
{
    public string Host { get; init; } = "127.0.0.1";

    public int Port { get; init; } = 9878;

    public string SenderCompId { get; init; } = "LOADGEN";

    public string TargetCompId { get; init; } = "EXCH";

    public LoadMode Mode { get; init; } = LoadMode.Sync;

    /// <summary>Measured orders (after warm-up); 0 means the mode's default (<see cref="DefaultOrders"/>).</summary>
    public long Orders { get; init; }

    /// <summary>Orders per second in rate and mixed mode (mixed with 0 runs the background pipelined).</summary>
    public long Rate { get; init; } = 50_000;

    /// <summary>Orders sent before measuring (same flow, not recorded); -1 means the mode's default.</summary>
    public long Warmup { get; init; } = -1;

    /// <summary>Mixed mode: one order in every LatencyEvery is a latency order (100 = 2 per 200), each of the flow's four kinds in turn.</summary>
    public int LatencyEvery { get; init; } = 100;

    public string Symbol { get; init; } = "AAPL";

    /// <summary>HDR percentile distribution file (microseconds) of the main histogram; null: not written.</summary>
    public string? HgrmOut { get; init; }

    /// <summary>CSV of every measured order's intended, sent and received times (<c>TimelineWriter</c>); null: not written.</summary>
    public string? TimelineOut { get; init; }

    /// <summary>Read by spinning on a non-blocking socket instead of blocking in Receive (burns a core).</summary>
    public bool BusyPoll { get; init; }

    /// <summary>Resting orders (half each side) placed before measuring, so orders meet a realistic book.</summary>
    public int Prepopulate { get; init; } = 1_000;

    /// <summary>Pipelined mode (and pre-population): most orders sent but not yet acknowledged.</summary>
    /// <remarks>
    /// The venue logs a session out when its unsent output passes Listen:MaxSendBacklogBytes (4 MiB by default). An
    /// order here produces about two ExecutionReports of ~250 bytes (New, then a Trade for the IOCs, plus the resting
    /// order's Trade), so 10,000 in flight can queue ~5 MB when the client's reader is starved of CPU; 4,000 stays
    /// well inside the bound.
    /// </remarks>
    public int Window { get; init; } = 4_000;

    /// <summary>Pipelined mode: most orders encoded into one socket send.</summary>
    public int Batch { get; init; } = 64;

    /// <summary>Mid price in price units (PriceDecimals), e.g. 100.00 at 4 decimals = 1,000,000.</summary>
    public long MidPrice { get; init; } = 1_000_000;

    /// <summary>Tick in price units (0.01 at 4 decimals = 100).</summary>
    public long Tick { get; init; } = 100;

    /// <summary>Price levels each side around the mid that passive orders rest on.</summary>
    public int Levels { get; init; } = 5;

    public int PriceDecimals { get; init; } = 4;

    public long Quantity { get; init; } = 100;

    public int HeartBtInt { get; init; } = 30;

    /// <summary>Longest wait for logon, for the last acknowledgements, and for the logout reply.</summary>
    public int TimeoutSeconds { get; init; } = 30;

    /// <summary>Seven base-36 characters inside every ClOrdID so repeated runs never reuse one; null: from the clock.</summary>
    public string? RunId { get; init; }

    public long EffectiveOrders => Orders > 0 ? Orders : DefaultOrders(Mode);

    public long EffectiveWarmup => Warmup >= 0 ? Warmup : Math.Min(10_000, EffectiveOrders / 10);

    public static long DefaultOrders(LoadMode mode) => mode == LoadMode.Sync ? 20_000 : 200_000;
}
