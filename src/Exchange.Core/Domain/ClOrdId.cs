using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Text;

namespace Exchange.Core.Domain;

/// <summary>
/// A client order id (FIX ClOrdID 11) held inline as up to <see cref="MaxLength"/> ASCII bytes, so commands and
/// events stay blittable structs in ring slots and the engine never holds a string. Longer ids are rejected by the
/// gateway before they reach the engine.
/// </summary>
public struct ClOrdId : IEquatable<ClOrdId>
{
    public const int MaxLength = 32;

    private Bytes _bytes;
    private byte _length;

    [InlineArray(MaxLength)]
    private struct Bytes
    {
        private byte _element0;
    }

    public readonly int Length => _length;

    public readonly bool IsEmpty => _length == 0;

    /// <summary>Creates an id from raw bytes; false when the value is empty or longer than <see cref="MaxLength"/>.</summary>
    public static bool TryCreate(ReadOnlySpan<byte> value, out ClOrdId id)
    {
        id = default;
        if (value.IsEmpty || value.Length > MaxLength)
        {
            return false;
        }

        value.CopyTo(id._bytes);
        id._length = (byte)value.Length;
        return true;
    }

    /// <summary>Convenience for tests and configuration; allocates nothing but is not meant for the hot path.</summary>
    public static ClOrdId From(string value)
    {
        Span<byte> buffer = stackalloc byte[MaxLength];
        int written = Encoding.ASCII.GetBytes(value.AsSpan(0, Math.Min(value.Length, MaxLength)), buffer);
        if (value.Length > MaxLength || !TryCreate(buffer[..written], out ClOrdId id))
        {
            throw new ArgumentException($"ClOrdID must be 1..{MaxLength} ASCII characters.", nameof(value));
        }

        return id;
    }

    /// <summary>The id's bytes. The span refers to this instance: keep the instance alive and unmoved while using it.</summary>
    [UnscopedRef]
    public readonly ReadOnlySpan<byte> AsSpan() => ((ReadOnlySpan<byte>)_bytes)[.._length];

    public readonly bool Equals(ClOrdId other) => AsSpan().SequenceEqual(other.AsSpan());

    public override readonly bool Equals(object? obj) => obj is ClOrdId other && Equals(other);

    public override readonly int GetHashCode()
    {
        var hash = default(HashCode);
        hash.AddBytes(AsSpan());
        return hash.ToHashCode();
    }

    public override readonly string ToString() => Encoding.ASCII.GetString(AsSpan());

    public static bool operator ==(ClOrdId left, ClOrdId right) => left.Equals(right);

    public static bool operator !=(ClOrdId left, ClOrdId right) => !left.Equals(right);
}
