namespace Exchange.Host.Journal;

/// <summary>When the journal forces written records to stable storage (fsync).</summary>
internal enum FsyncPolicy
{
    /// <summary>fsync after every batch write: an acknowledged order survives power loss. Slowest.</summary>
    EveryBatch,

    /// <summary>fsync from the write path when the configured interval has elapsed: bounded loss window on power loss.</summary>
    Periodic,

    /// <summary>Never fsync explicitly; the OS writes back. Survives a process crash, not a power loss.</summary>
    Never,
}
