using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Exchange.Core.Memory;

/// <summary>
/// Writes once to every page of preallocated memory, so that the order path never takes the first write's page fault.
/// </summary>
/// <remarks>
/// <para>Why: a page is backed only when first written, and that fault is slow: on this project's VMs, whose host backs
/// guest memory lazily too, 5-15 µs per 4 KiB page. Tables and rings sized for a trading day are touched a page at a
/// time over the first hours, each first touch landing on some order's round trip. Touching them at start-up moves
/// all of those faults before the first client connects.</para>
/// <para>Each touch reads a byte and writes it back, so contents are kept. Single-threaded: the caller owns the memory
/// and nothing else writes it meanwhile. Returns the bytes covered, for the start-up log.</para>
/// </remarks>
public static unsafe class PageToucher
{
    /// <summary>The smallest page size of the platforms we run on; touching more often than a page costs nothing extra.</summary>
    public const int PageSize = 4096;

    public static long Touch(void* memory, long bytes)
    {
        byte* start = (byte*)memory;
        for (long offset = 0; offset < bytes; offset += PageSize)
        {
            Volatile.Write(ref start[offset], Volatile.Read(ref start[offset]));
        }

        return bytes;
    }

    public static long Touch<T>(T[] array)
        where T : struct
    {
        long bytes = (long)array.Length * Unsafe.SizeOf<T>();
        ref byte start = ref Unsafe.As<T, byte>(ref MemoryMarshal.GetArrayDataReference(array));
        for (long offset = 0; offset < bytes; offset += PageSize)
        {
            ref byte b = ref Unsafe.Add(ref start, (nint)offset);
            Volatile.Write(ref b, Volatile.Read(ref b));
        }

        return bytes;
    }
}
