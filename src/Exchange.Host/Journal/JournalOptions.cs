namespace Exchange.Host.Journal;

/// <summary>How a <see cref="JournalWriter"/> buffers and syncs.</summary>
internal sealed record JournalOptions
{
    public FsyncPolicy FsyncPolicy { get; init; } = FsyncPolicy.EveryBatch;

    /// <summary>For <see cref="FsyncPolicy.Periodic"/>: the longest time written records stay un-synced while writing continues.</summary>
    public TimeSpan FsyncInterval { get; init; } = TimeSpan.FromMilliseconds(10);

    /// <summary>Records buffered before a write is forced mid-batch.</summary>
    public int BufferRecords { get; init; } = 512;
}
