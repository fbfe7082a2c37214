namespace Exchange.Host.Metrics;

/// <summary>Stages of an order's path whose latency is recorded (tag value "stage").</summary>
internal enum PipelineStage
{
    /// <summary>Socket receive to publication into the inbound ring.</summary>
    Received,

    /// <summary>Inbound publication to journal write/sync.</summary>
    Journaled,

    /// <summary>Inbound publication to matching done.</summary>
    Matched,

    /// <summary>Socket receive to execution report handed to the socket.</summary>
    Sent,
}
