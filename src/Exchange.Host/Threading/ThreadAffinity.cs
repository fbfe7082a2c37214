using System.Runtime.InteropServices;

namespace Exchange.Host.Threading;

/// <summary>
/// Pins the calling thread to one CPU. Never throws for OS refusals: the caller logs the returned
/// <see cref="AffinityResult"/> and carries on unpinned (containers and CI often forbid or restrict affinity).
/// </summary>
internal static partial class ThreadAffinity
{
    private const int LinuxEperm = 1;
    private const int LinuxEinval = 22;
    private const int WindowsErrorInvalidParameter = 87;
    private const int WindowsErrorAccessDenied = 5;

    // 1024 CPUs, the glibc cpu_set_t size; sched_setaffinity accepts any multiple of sizeof(long).
    private const int LinuxMaskBytes = 128;

    /// <summary>Pins the calling thread to <paramref name="cpu"/> (0-based).</summary>
    public static AffinityResult PinCurrentThread(int cpu)
    {
        if (OperatingSystem.IsLinux())
        {
            return PinLinux(cpu);
        }

        if (OperatingSystem.IsWindows())
        {
            return PinWindows(cpu);
        }

        return new AffinityResult(AffinityOutcome.NotSupported, cpu, 0);
    }

    private static unsafe AffinityResult PinLinux(int cpu)
    {
        if (cpu < 0 || cpu >= LinuxMaskBytes * 8)
        {
            return new AffinityResult(AffinityOutcome.InvalidCpu, cpu, LinuxEinval);
        }

        byte* mask = stackalloc byte[LinuxMaskBytes];
        new Span<byte>(mask, LinuxMaskBytes).Clear();
        mask[cpu / 8] = (byte)(1 << (cpu % 8));

        // pid 0 means the calling thread (Linux affinity is per thread, by TID).
        if (SchedSetAffinity(0, LinuxMaskBytes, mask) == 0)
        {
            return new AffinityResult(AffinityOutcome.Pinned, cpu, 0);
        }

        int errno = Marshal.GetLastPInvokeError();
        AffinityOutcome outcome = errno switch
        {
            LinuxEperm => AffinityOutcome.NotPermitted,
            LinuxEinval => AffinityOutcome.InvalidCpu,
            _ => AffinityOutcome.Failed,
        };
        return new AffinityResult(outcome, cpu, errno);
    }

    private static AffinityResult PinWindows(int cpu)
    {
        if (cpu < 0 || cpu >= IntPtr.Size * 8)
        {
            // Beyond one processor group: SetThreadAffinityMask cannot express it.
            return new AffinityResult(AffinityOutcome.InvalidCpu, cpu, WindowsErrorInvalidParameter);
        }

        nuint previous = SetThreadAffinityMask(GetCurrentThread(), (nuint)1 << cpu);
        if (previous != 0)
        {
            return new AffinityResult(AffinityOutcome.Pinned, cpu, 0);
        }

        int error = Marshal.GetLastPInvokeError();
        AffinityOutcome outcome = error switch
        {
            WindowsErrorInvalidParameter => AffinityOutcome.InvalidCpu,
            WindowsErrorAccessDenied => AffinityOutcome.NotPermitted,
            _ => AffinityOutcome.Failed,
        };
        return new AffinityResult(outcome, cpu, error);
    }

    [LibraryImport("libc", EntryPoint = "sched_setaffinity", SetLastError = true)]
    private static unsafe partial int SchedSetAffinity(int pid, nint cpuSetSize, byte* mask);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    private static partial nuint SetThreadAffinityMask(nint thread, nuint mask);

    [LibraryImport("kernel32.dll")]
    private static partial nint GetCurrentThread();
}
