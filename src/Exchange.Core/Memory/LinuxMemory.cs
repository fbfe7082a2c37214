using System.Runtime.InteropServices;

namespace Exchange.Core.Memory;

/// <summary>
/// The Linux memory-mapping calls and flags (x86-64 and arm64 values) shared by the mapped files
/// (<see cref="Storage.ReservedFileMapping"/>) and the huge-page tables (<see cref="HugePageMemory"/>). Callers check
/// <see cref="OperatingSystem.IsLinux"/> first.
/// </summary>
internal static unsafe partial class LinuxMemory
{
    public const int ProtNone = 0;
    public const int ProtReadWrite = 1 | 2;
    public const int MapShared = 0x01;
    public const int MapPrivate = 0x02;
    public const int MapFixed = 0x10;
    public const int MapAnonymous = 0x20;
    public const int MapNoReserve = 0x4000;
    public const int MadvHugePage = 14;

    /// <summary>mmap(2); -1 on failure, with errno in <see cref="Marshal.GetLastPInvokeError"/>.</summary>
    [LibraryImport("libc", EntryPoint = "mmap", SetLastError = true)]
    public static partial nint Mmap(void* address, nuint length, int protection, int flags, int fd, nint offset);

    [LibraryImport("libc", EntryPoint = "munmap", SetLastError = true)]
    public static partial int Munmap(void* address, nuint length);

    [LibraryImport("libc", EntryPoint = "madvise", SetLastError = true)]
    public static partial int Madvise(void* address, nuint length, int advice);
}
