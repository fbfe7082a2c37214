namespace Exchange.Fix.Gateway;

/// <summary>
/// Per-stage monotonic timestamps (<see cref="System.Diagnostics.Stopwatch.GetTimestamp"/> units) of one command's trip
/// through the venue, written into ExecutionReports as custom tags when stage timestamps are enabled, so a load client
/// on the same machine can break its round trip down. Zero means not recorded.
/// </summary>
public struct StageTimes
{
    /// <summary>Tag 7001: the gateway framed, parsed and mapped the message and hands its command to the venue.</summary>
    public long Received;

    /// <summary>
    /// Tag 7002: the journal commit that made the command durable returned (in Threaded mode, when several commits
    /// land before the sender looks, possibly a later one's: never earlier).
    /// </summary>
    public long Journaled;

    /// <summary>Tag 7003: the matcher finished the command.</summary>
    public long Matched;

    /// <summary>Tag 7004: the sender began encoding the report.</summary>
    public long Sent;
}
