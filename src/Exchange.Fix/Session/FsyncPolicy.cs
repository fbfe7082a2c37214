namespace Exchange.Fix.Session;

/// <summary>How <see cref="FileSessionStore"/> trades durability for latency.</summary>
public enum FsyncPolicy
{
    /// <summary>Every record is written and fsynced before the call returns: survives power loss, slowest.</summary>
    Always,

    /// <summary>
    /// Every record is written to the OS at once (a process crash loses nothing) and fsynced every
    /// <see cref="SessionConfig.FsyncBatchSize"/> records and on <see cref="ISessionStore.Flush"/>: a power loss can
    /// lose the last unsynced batch.
    /// </summary>
    Batch,

    /// <summary>Every record is written to the OS at once but never fsynced: survives a process crash, not power loss.</summary>
    Never,
}
