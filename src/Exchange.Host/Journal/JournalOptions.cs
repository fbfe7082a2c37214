namespace Exchange.Host.Journal;

/// <summary>How a <see cref="JournalWriter"/> maps and syncs.</summary>
internal sealed record JournalOptions
{
    public FsyncPolicy FsyncPolicy { get; init; } = FsyncPolicy.EveryBatch;

    /// <summary>For <see cref="FsyncPolicy.Periodic"/>: the longest time written records stay un-synced while writing continues.</summary>
    public TimeSpan FsyncInterval { get; init; } = TimeSpan.FromMilliseconds(10);

    /// <summary>How far ahead of the last record the file is extended and mapped at a time (growing costs a remap).</summary>
    public long MapChunkBytes { get; init; } = 16L * 1024 * 1024;
}
