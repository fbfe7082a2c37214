namespace Exchange.Host.Journal;

/// <summary>How a <see cref="JournalWriter"/> maps and syncs.</summary>
internal sealed record JournalOptions
{
    public FsyncPolicy FsyncPolicy { get; init; } = FsyncPolicy.EveryBatch;

    /// <summary>For <see cref="FsyncPolicy.Periodic"/>: the longest time written records stay un-synced while writing continues.</summary>
    public TimeSpan FsyncInterval { get; init; } = TimeSpan.FromMilliseconds(10);

    /// <summary>
    /// How far ahead of the last record the file is extended (sparsely) and mapped at a time. Each extension is a file
    /// system metadata update on the order path, which can wait for the file system's own journal; 256 MiB makes it
    /// rare (every ~40 s at 50,000 orders/s). On Linux growth maps only the new part, so a large chunk costs address
    /// space, not memory or disk; a graceful stop trims the file.
    /// </summary>
    public long MapChunkBytes { get; init; } = 256L * 1024 * 1024;

    /// <summary>
    /// Linux: address space reserved for the journal to grow in place (1 TiB: the journal of a long trading day at full
    /// rate); a longer journal keeps working, remapped whole per chunk.
    /// </summary>
    public long MapReserveBytes { get; init; } = 1L << 40;
}
