using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace Exchange.Fix.Codec;

/// <summary>FIX CheckSum (10): the sum of every byte before the "10=" field, modulo 256.</summary>
/// <remarks>Vectorised with SAD (sum of absolute differences against zero) where available, because a checksum over
/// every inbound and outbound message is a large share of a 100 ns budget when done a byte at a time.</remarks>
internal static class FixChecksum
{
    public static int Compute(ReadOnlySpan<byte> bytes)
    {
        ulong sum = 0;
        int i = 0;
        ref byte start = ref Unsafe.AsRef(in bytes.GetPinnableReference());
        if (Avx2.IsSupported && bytes.Length >= 32)
        {
            Vector256<ulong> acc = Vector256<ulong>.Zero;
            for (; i <= bytes.Length - 32; i += 32)
            {
                Vector256<byte> v = Vector256.LoadUnsafe(ref start, (nuint)i);
                acc = Avx2.Add(acc, Avx2.SumAbsoluteDifferences(v, Vector256<byte>.Zero).AsUInt64());
            }

            int rest = bytes.Length - i;
            if (rest > 0)
            {
                // The last 0..31 bytes: reload the final 32 (in range, as Length >= 32) and zero the ones already
                // summed with a sliding mask, instead of a byte loop of up to 31 steps.
                Vector256<byte> tail = Vector256.LoadUnsafe(ref start, (nuint)(bytes.Length - 32)) &
                                       TailMaskFrom(rest);
                acc = Avx2.Add(acc, Avx2.SumAbsoluteDifferences(tail, Vector256<byte>.Zero).AsUInt64());
                i = bytes.Length;
            }

            sum = Vector256.Sum(acc);
        }
        else if (Sse2.IsSupported && bytes.Length >= 16)
        {
            Vector128<ulong> acc = Vector128<ulong>.Zero;
            for (; i <= bytes.Length - 16; i += 16)
            {
                Vector128<byte> v = Vector128.LoadUnsafe(ref start, (nuint)i);
                acc = Sse2.Add(acc, Sse2.SumAbsoluteDifferences(v, Vector128<byte>.Zero).AsUInt64());
            }

            sum = Vector128.Sum(acc);
        }

        for (; i < bytes.Length; i++)
        {
            sum += Unsafe.Add(ref start, i);
        }

        return (int)(sum & 0xFF);
    }

    /// <summary>
    /// Copies <paramref name="source"/> to <paramref name="destination"/> (which must have room for it) and returns a
    /// value congruent to the sum of its bytes modulo 256 (all CheckSum needs). One pass: the sum comes from the vectors being copied, so a message
    /// framed around an already-encoded body reads only its fresh header back for the CheckSum, not the body it just
    /// stored (reading just-stored bytes back waits for those stores to complete).
    /// </summary>
    public static ulong CopyAndSum(ReadOnlySpan<byte> source, ref byte destination)
    {
        int length = source.Length;
        if (!Avx2.IsSupported || length < 32)
        {
            source.CopyTo(MemoryMarshal.CreateSpan(ref destination, length));
            return (ulong)Compute(source);
        }

        ref byte from = ref MemoryMarshal.GetReference(source);
        Vector256<ulong> acc = Vector256<ulong>.Zero;
        int i = 0;
        for (; i <= length - 32; i += 32)
        {
            Vector256<byte> v = Vector256.LoadUnsafe(ref from, (nuint)i);
            v.StoreUnsafe(ref destination, (nuint)i);
            acc = Avx2.Add(acc, Avx2.SumAbsoluteDifferences(v, Vector256<byte>.Zero).AsUInt64());
        }

        int rest = length - i;
        if (rest > 0)
        {
            // The last 32 bytes again (stored whole: the overlap rewrites the same bytes), summed without the ones
            // already counted, as in Compute.
            Vector256<byte> tail = Vector256.LoadUnsafe(ref from, (nuint)(length - 32));
            tail.StoreUnsafe(ref destination, (nuint)(length - 32));
            acc = Avx2.Add(acc, Avx2.SumAbsoluteDifferences(tail & TailMaskFrom(rest), Vector256<byte>.Zero).AsUInt64());
        }

        return Vector256.Sum(acc);
    }

    /// <summary>The 32 bytes of <see cref="TailMask"/> from <paramref name="rest"/> (1..31): keeps the last <paramref name="rest"/> bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<byte> TailMaskFrom(int rest) =>
        Vector256.LoadUnsafe(ref MemoryMarshal.GetReference(TailMask), (nuint)rest);

    /// <summary>32 zero bytes then 32 0xFF bytes: 32 bytes from offset n keep only the last n.</summary>
    private static ReadOnlySpan<byte> TailMask =>
    [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    ];

    /// <summary>Writes the checksum as the three digits FIX requires (leading zeros kept).</summary>
    public static void WriteThreeDigits(int checksum, Span<byte> destination)
    {
        destination[2] = (byte)('0' + (checksum % 10));
        destination[1] = (byte)('0' + ((checksum / 10) % 10));
        destination[0] = (byte)('0' + (checksum / 100));
    }
}
