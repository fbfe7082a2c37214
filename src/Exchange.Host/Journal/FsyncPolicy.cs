namespace Exchange.Host.Journal;

/// <summary>When the journal forces written records to stable storage (fsync).</summary>
internal enum FsyncPolicy
{
    /// <summary>fsync after every batch write: an acknowledged order survives power loss. Slowest.</summary>
    EveryBatch,

    /// <summary>
    /// fsync from the write path (at a batch commit) once the configured interval has elapsed: a bounded loss window on
    /// power loss. No timer thread: when writing stops, the last records stay un-synced until the next commit,
    /// <see cref="JournalWriter.Sync"/> or dispose (the host may call Sync on shutdown or when idle).
    /// </summary>
    Periodic,

    /// <summary>Never fsync explicitly; the OS writes back. Survives a process crash, not a power loss.</summary>
    Never,
}
