namespace Exchange.Fix.Session;

/// <summary>How <see cref="FileSessionStore"/> trades durability for latency.</summary>
public enum FsyncPolicy
{
    /// <summary>Every record is written and fsynced before the call returns: survives power loss, slowest.</summary>
    Always,

    /// <summary>
    /// Records are buffered in process and written + fsynced every <see cref="SessionConfig.FsyncBatchSize"/> records
    /// and on <see cref="ISessionStore.Flush"/>: a crash can lose the last unflushed batch.
    /// </summary>
    Batch,

    /// <summary>Every record is written to the OS at once but never fsynced: survives a process crash, not power loss.</summary>
    Never,
}
