using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace Exchange.Fix.Codec;

/// <summary>
/// Marks every SOH (field delimiter) of a message in a bitmap, 64 bytes per <see cref="ulong"/> word, with vector
/// compares: the parser then walks the set bits instead of calling IndexOf once per (typically 5..25-byte) field.
/// </summary>
internal static class SohBitmap
{
    /// <summary>Bytes a buffer needs past its last message byte so the 64-byte loads of the last chunk stay inside it.</summary>
    public const int Padding = 64;

    /// <summary>Words needed for a message of up to <paramref name="maxLength"/> bytes.</summary>
    public static int WordsFor(int maxLength) => (maxLength + 63) / 64;

    /// <summary>
    /// Fills <paramref name="words"/>[0 .. WordsFor(length)) with the SOH positions of <paramref name="buffer"/>[0..length).
    /// Bits at or past <paramref name="length"/> are cleared, so stale bytes of a previous message never count.
    /// </summary>
    /// <param name="buffer">At least length + <see cref="Padding"/> bytes (the tail is read, never trusted).</param>
    public static void Build(ReadOnlySpan<byte> buffer, int length, Span<ulong> words)
    {
        int count = WordsFor(length);
        if ((uint)(count * 64) > (uint)buffer.Length || (uint)count > (uint)words.Length)
        {
            throw new ArgumentException("Buffer or bitmap too small for the message length.");
        }

        // Safe: the check above guarantees every 64-byte chunk read below lies inside buffer and every word written
        // inside words.
        ref byte start = ref MemoryMarshal.GetReference(buffer);
        ref ulong word = ref MemoryMarshal.GetReference(words);
        for (int w = 0; w < count; w++)
        {
            Unsafe.Add(ref word, w) = Chunk(ref Unsafe.Add(ref start, w * 64));
        }

        int tailBits = length & 63;
        if (tailBits != 0)
        {
            Unsafe.Add(ref word, count - 1) &= (1UL << tailBits) - 1;
        }
    }

    /// <summary>
    /// Copies <paramref name="source"/> to the start of <paramref name="destination"/> and fills
    /// <paramref name="words"/>[0 .. WordsFor(source.Length)) like <see cref="Build"/>, in one pass: each 64-byte chunk
    /// is loaded from the source once, stored, and compared. Comparing the source rather than the fresh copy matters:
    /// a load that spans several just-issued stores cannot be forwarded from them and waits until they retire.
    /// </summary>
    /// <param name="destination">At least WordsFor(source.Length) * 64 bytes.</param>
    public static void CopyAndBuild(ReadOnlySpan<byte> source, Span<byte> destination, Span<ulong> words)
    {
        int length = source.Length;
        int count = WordsFor(length);
        if ((uint)(count * 64) > (uint)destination.Length || (uint)count > (uint)words.Length)
        {
            throw new ArgumentException("Destination or bitmap too small for the message length.");
        }

        if (length < 64)
        {
            // Shorter than one chunk: a plain copy, then the padded chunk of the copy (its bytes past length are masked).
            source.CopyTo(destination);
            Build(destination, length, words);
            return;
        }

        // Safe: every full chunk lies inside source (w * 64 + 64 <= length) and inside destination (checked above);
        // the tail chunk is the last 64 bytes of source (length >= 64), stored at the same offset.
        ref byte from = ref MemoryMarshal.GetReference(source);
        ref byte to = ref MemoryMarshal.GetReference(destination);
        ref ulong word = ref MemoryMarshal.GetReference(words);
        int full = length / 64;
        for (int w = 0; w < full; w++)
        {
            Unsafe.Add(ref word, w) = CopyChunk(ref Unsafe.Add(ref from, w * 64), ref Unsafe.Add(ref to, w * 64));
        }

        int tailBits = length & 63;
        if (tailBits != 0)
        {
            // The last 64 bytes overlap the previous chunk by 64 - tailBits bytes; drop their bits.
            int at = length - 64;
            Unsafe.Add(ref word, full) = CopyChunk(ref Unsafe.Add(ref from, at), ref Unsafe.Add(ref to, at)) >> (64 - tailBits);
        }
    }

    /// <summary>Copies the 64 bytes at <paramref name="from"/> to <paramref name="to"/>; bit i set when byte i is SOH.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong CopyChunk(ref byte from, ref byte to)
    {
        if (Vector512.IsHardwareAccelerated)
        {
            Vector512<byte> v = Vector512.LoadUnsafe(ref from);
            v.StoreUnsafe(ref to);
            return Vector512.Equals(v, Vector512.Create(FixConstants.Soh)).ExtractMostSignificantBits();
        }

        if (Vector256.IsHardwareAccelerated)
        {
            Vector256<byte> soh = Vector256.Create(FixConstants.Soh);
            Vector256<byte> low = Vector256.LoadUnsafe(ref from);
            Vector256<byte> high = Vector256.LoadUnsafe(ref from, 32);
            low.StoreUnsafe(ref to);
            high.StoreUnsafe(ref to, 32);
            return Vector256.Equals(low, soh).ExtractMostSignificantBits() | ((ulong)Vector256.Equals(high, soh).ExtractMostSignificantBits() << 32);
        }

        Vector128<byte> soh128 = Vector128.Create(FixConstants.Soh);
        ulong bits = 0;
        for (int i = 0; i < 4; i++)
        {
            Vector128<byte> v = Vector128.LoadUnsafe(ref from, (nuint)(i * 16));
            v.StoreUnsafe(ref to, (nuint)(i * 16));
            bits |= (ulong)Vector128.Equals(v, soh128).ExtractMostSignificantBits() << (i * 16);
        }

        return bits;
    }

    /// <summary>Bit i set when chunk[i] is SOH, for the 64 bytes at <paramref name="chunk"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Chunk(ref byte chunk)
    {
        if (Vector512.IsHardwareAccelerated)
        {
            return Vector512.Equals(Vector512.LoadUnsafe(ref chunk), Vector512.Create(FixConstants.Soh)).ExtractMostSignificantBits();
        }

        if (Vector256.IsHardwareAccelerated)
        {
            Vector256<byte> soh = Vector256.Create(FixConstants.Soh);
            ulong low = Vector256.Equals(Vector256.LoadUnsafe(ref chunk), soh).ExtractMostSignificantBits();
            ulong high = Vector256.Equals(Vector256.LoadUnsafe(ref chunk, 32), soh).ExtractMostSignificantBits();
            return low | (high << 32);
        }

        Vector128<byte> soh128 = Vector128.Create(FixConstants.Soh);
        ulong bits = 0;
        for (int i = 0; i < 4; i++)
        {
            bits |= (ulong)Vector128.Equals(Vector128.LoadUnsafe(ref chunk, (nuint)(i * 16)), soh128).ExtractMostSignificantBits() << (i * 16);
        }

        return bits;
    }
}
