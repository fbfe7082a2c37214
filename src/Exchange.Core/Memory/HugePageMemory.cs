using System.Runtime.InteropServices;
using static Exchange.Core.Memory.LinuxMemory;

namespace Exchange.Core.Memory;

/// <summary>
/// Native memory for large tables the matcher probes at random (one cache line per command, anywhere in tens of
/// megabytes), mapped so that Linux backs it with 2 MiB transparent huge pages.
/// </summary>
/// <remarks>
/// <para>Why: with 4 KiB pages a random probe into a 16 MiB table misses the TLB as well as the cache, and under a
/// hypervisor (this project's machines) a TLB miss is a two-level page walk. With huge pages the whole table needs a
/// handful of TLB entries. Also, the table is not zeroed by the runtime up front (a fresh mapping reads as zeros), so
/// its pages are backed only as they are touched.</para>
/// <para>How: an anonymous private mapping, aligned to 2 MiB, advised with madvise(MADV_HUGEPAGE) before any page is
/// touched (advice given after the pages exist only lets a background thread collapse them later). The machine's
/// transparent huge page mode must be <c>madvise</c> or <c>always</c>; with <c>never</c> the advice is refused and the
/// memory works as before. Elsewhere than Linux it is plain zeroed native memory. Pages are backed on first touch either
/// way, and the memory reads as zeros.</para>
/// </remarks>
internal static unsafe class HugePageMemory
{
    private const nuint HugePageBytes = 2 * 1024 * 1024;

    /// <summary>Zeroed memory for <paramref name="count"/> elements; release it with <see cref="Free"/> and the same count.</summary>
    public static T* Allocate<T>(long count)
        where T : unmanaged
    {
        nuint bytes = RoundUp(checked((nuint)count * (nuint)sizeof(T)));
        if (!OperatingSystem.IsLinux())
        {
            void* memory = NativeMemory.AlignedAlloc(bytes, HugePageBytes);
            if (memory == null)
            {
                throw new OutOfMemoryException($"Could not allocate {bytes} bytes.");
            }

            NativeMemory.Clear(memory, bytes);
            return (T*)memory;
        }

        // Map one huge page more than needed and unmap the unaligned ends, so the table starts on a 2 MiB boundary.
        nuint mapped = bytes + HugePageBytes;
        nint address = Mmap(null, mapped, ProtReadWrite, MapPrivate | MapAnonymous, -1, 0);
        if (address == -1)
        {
            throw new OutOfMemoryException($"mmap of {mapped} bytes failed (errno {Marshal.GetLastPInvokeError()}).");
        }

        nuint start = (nuint)address;
        nuint aligned = (start + HugePageBytes - 1) & ~(HugePageBytes - 1);
        if (aligned > start)
        {
            _ = Munmap((void*)start, aligned - start);
        }

        nuint tail = start + mapped - (aligned + bytes);
        if (tail > 0)
        {
            _ = Munmap((void*)(aligned + bytes), tail);
        }

        // Refused where huge pages are off; the memory is as good without them.
        _ = Madvise((void*)aligned, bytes, MadvHugePage);
        return (T*)aligned;
    }

    /// <summary>Releases memory from <see cref="Allocate{T}"/> of <paramref name="count"/> elements.</summary>
    public static void Free<T>(T* memory, long count)
        where T : unmanaged
    {
        if (memory == null)
        {
            return;
        }

        if (OperatingSystem.IsLinux())
        {
            _ = Munmap(memory, RoundUp((nuint)count * (nuint)sizeof(T)));
        }
        else
        {
            NativeMemory.AlignedFree(memory);
        }
    }

    private static nuint RoundUp(nuint bytes) => (Math.Max(bytes, 1) + HugePageBytes - 1) & ~(HugePageBytes - 1);
}
