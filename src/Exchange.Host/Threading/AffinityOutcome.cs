namespace Exchange.Host.Threading;

/// <summary>The outcome of pinning a thread to a CPU.</summary>
internal enum AffinityOutcome
{
    /// <summary>The calling thread now runs only on the requested CPU.</summary>
    Pinned,

    /// <summary>The OS refused (EPERM, a restricted container or cpuset): the thread keeps running unpinned.</summary>
    NotPermitted,

    /// <summary>Pinning is not implemented for this OS: the thread keeps running unpinned.</summary>
    NotSupported,

    /// <summary>The CPU number is out of range or not available to this process (EINVAL).</summary>
    InvalidCpu,

    /// <summary>Any other OS failure; see <see cref="AffinityResult.ErrorCode"/>.</summary>
    Failed,
}

/// <summary>What <see cref="ThreadAffinity.PinCurrentThread"/> did, with the OS error code for the log line.</summary>
/// <param name="Outcome">The result class.</param>
/// <param name="Cpu">The CPU asked for.</param>
/// <param name="ErrorCode">errno (Linux) or GetLastError (Windows); 0 when pinned.</param>
internal readonly record struct AffinityResult(AffinityOutcome Outcome, int Cpu, int ErrorCode)
{
    public bool IsPinned => Outcome == AffinityOutcome.Pinned;

    /// <summary>A sentence for the host's log.</summary>
    public string Describe() => Outcome switch
    {
        AffinityOutcome.Pinned => $"pinned to CPU {Cpu}",
        AffinityOutcome.NotPermitted => $"not pinned to CPU {Cpu}: not permitted (error {ErrorCode}); running unpinned",
        AffinityOutcome.NotSupported => $"not pinned to CPU {Cpu}: CPU pinning is not supported on this OS; running unpinned",
        AffinityOutcome.InvalidCpu => $"not pinned to CPU {Cpu}: no such CPU available to this process (error {ErrorCode}, {Environment.ProcessorCount} CPUs visible); running unpinned",
        _ => $"not pinned to CPU {Cpu}: error {ErrorCode}; running unpinned",
    };
}
