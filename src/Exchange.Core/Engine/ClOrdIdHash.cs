using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using Exchange.Core.Domain;

namespace Exchange.Core.Engine;

/// <summary>
/// The two hashes of an (owner, ClOrdID) key: the <em>group</em> hash of every byte but the last, and the full hash
/// derived from it and the last byte.
/// </summary>
/// <remarks>
/// <para>Why a group hash: clients number their orders, so consecutive ClOrdIDs usually differ only in their last
/// character ("A-1230", "A-1231", ...). <see cref="UsedClOrdIds"/> places ids of one group in one cache line, so a day
/// of numbered ids touches a line per ten ids instead of one per id; ids without such a pattern (random or UUID-like)
/// simply land one group each, as with any hash. <see cref="ClOrdIdIndex"/> uses the full hash.</para>
/// <para>Keyed with a random per-process seed, so a client cannot precompute ids that all collide in a table and turn
/// each probe into a long scan. Nothing depends on where a key lands (no iteration in hash order), so replaying a
/// journal in another process gives the same results.</para>
/// </remarks>
internal static class ClOrdIdHash
{
    private static readonly ulong Seed = (ulong)RandomNumberGenerator.GetInt32(int.MaxValue) << 32 | (uint)RandomNumberGenerator.GetInt32(int.MaxValue);

    /// <summary>Hash of the owner and every byte of the id but the last (reads the id as 8-byte words, masked).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Group(int ownerId, in ClOrdId clOrdId)
    {
        ReadOnlySpan<byte> bytes = clOrdId.AsSpan();
        int length = Math.Max(bytes.Length - 1, 0);
        ref byte start = ref MemoryMarshal.GetReference(bytes);
        ulong hash = (((ulong)(uint)ownerId << 8 | (uint)length) ^ Seed) * 0x9E3779B97F4A7C15UL;
        int offset = 0;
        for (; offset + sizeof(ulong) <= length; offset += sizeof(ulong))
        {
            hash = Mix(hash, Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, offset)));
        }

        int remaining = length - offset;
        if (remaining > 0)
        {
            // A whole-word read is in bounds: the span starts an inline buffer of ClOrdId.MaxLength (32) bytes and
            // offset <= 24 here. The bytes past the group's length are masked off rather than trusted to be zero.
            ulong tail = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, offset));
            hash = Mix(hash, tail & (ulong.MaxValue >> ((sizeof(ulong) - remaining) * 8)));
        }

        return Avalanche(hash);
    }

    /// <summary>The full hash of the key whose <see cref="Group"/> hash is <paramref name="groupHash"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Full(ulong groupHash, in ClOrdId clOrdId) => Avalanche(groupHash ^ ((LastByte(clOrdId) + 1UL) * 0xC2B2AE3D27D4EB4FUL));

    /// <summary>The id's last byte (0 for an empty id), which picks the key's place within its group.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static uint LastByte(in ClOrdId clOrdId)
    {
        ReadOnlySpan<byte> bytes = clOrdId.AsSpan();
        return bytes.IsEmpty ? 0u : bytes[^1];
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Mix(ulong hash, ulong word) => BitOperations.RotateLeft((hash ^ word) * 0x9E3779B97F4A7C15UL, 31);

    /// <summary>The MurmurHash3 64-bit finaliser, so the low bits used as a bucket are well mixed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Avalanche(ulong hash)
    {
        hash ^= hash >> 33;
        hash *= 0xFF51AFD7ED558CCDUL;
        hash ^= hash >> 33;
        hash *= 0xC4CEB9FE1A85EC53UL;
        hash ^= hash >> 33;
        return hash;
    }
}
