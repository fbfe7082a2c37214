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
/// <para>Every page the memory spans is written, whatever its alignment: one write per <see cref="PageSize"/> from the
/// start, and one at the last byte. Contents are kept: plain memory is read and written back a byte at a time; an
/// array whose elements hold object references is written back an element at a time (a byte of a reference must never
/// be written around the GC). Single-threaded: the caller owns the memory and nothing else writes it meanwhile.
/// Returns the bytes covered, for the start-up log.</para>
/// </remarks>
public static unsafe class PageToucher
{
    /// <summary>The smallest page size of the platforms we run on; touching more often than a page costs nothing extra.</summary>
    public const int PageSize = 4096;

    public static long Touch(void* memory, long bytes) => TouchBytes(ref *(byte*)memory, bytes);

    public static long Touch<T>(T[] array)
        where T : struct
    {
        int size = Unsafe.SizeOf<T>();
        long bytes = (long)array.Length * size;
        if (RuntimeHelpers.IsReferenceOrContainsReferences<T>())
        {
            // Whole elements, through the runtime's write barrier: the element at each page step and the last one.
            for (long offset = 0; offset < bytes; offset = NextOffset(offset, bytes))
            {
                long index = offset / size;
                array[index] = array[index];
            }

            return bytes;
        }

        return TouchBytes(ref Unsafe.As<T, byte>(ref MemoryMarshal.GetArrayDataReference(array)), bytes);
    }

    /// <summary>Reads and writes back one byte per page step from <paramref name="start"/>, and the last byte.</summary>
    private static long TouchBytes(ref byte start, long bytes)
    {
        for (long offset = 0; offset < bytes; offset = NextOffset(offset, bytes))
        {
            ref byte b = ref Unsafe.Add(ref start, (nint)offset);
            Volatile.Write(ref b, Volatile.Read(ref b));
        }

        return bytes;
    }

    /// <summary>The next offset to write: a page on, or the last byte when that is nearer (the last page may be partial).</summary>
    private static long NextOffset(long offset, long bytes) =>
        offset == bytes - 1 ? bytes : Math.Min(offset + PageSize, bytes - 1);
}
