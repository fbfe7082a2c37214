using System.Runtime.InteropServices;

namespace Exchange.Host.Pipeline;

/// <summary>
/// A monotonically advancing ring position shared between threads (a producer cursor or a consumer's progress).
/// </summary>
/// <remarks>
/// The value sits 128 bytes into a 256-byte object so no other hot field (another sequence, a neighbour object)
/// shares its cache line or the adjacent-line prefetch pair: writers of one sequence never invalidate readers of
/// another. Reads are acquire (<see cref="Volatile.Read(ref long)"/>), <see cref="SetValue"/> is a release store:
/// everything written to ring slots before it is visible to a thread that reads the new value.
/// </remarks>
[StructLayout(LayoutKind.Explicit, Size = 256)]
internal sealed class Sequence
{
    /// <summary>The value of a sequence before anything was processed; the first ring sequence is 0.</summary>
    public const long InitialValue = -1;

    [FieldOffset(128)]
    private long _value;

    public Sequence(long initialValue = InitialValue) => _value = initialValue;

    public long Value => Volatile.Read(ref _value);

    /// <summary>Release store: prior writes (slot contents) become visible before the new value.</summary>
    public void SetValue(long value) => Volatile.Write(ref _value, value);

    /// <summary>Full-fence store, for the rare places that must order this store before a following load.</summary>
    public void SetValueVolatile(long value) => Interlocked.Exchange(ref _value, value);

    public bool CompareAndSet(long expected, long value) => Interlocked.CompareExchange(ref _value, value, expected) == expected;

    public override string ToString() => Value.ToString(System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The smallest value among <paramref name="sequences"/>, or <paramref name="whenEmpty"/> when there are none.</summary>
    public static long Minimum(Sequence[] sequences, long whenEmpty)
    {
        long minimum = long.MaxValue;
        foreach (Sequence sequence in sequences)
        {
            long value = sequence.Value;
            if (value < minimum)
            {
                minimum = value;
            }
        }

        return sequences.Length == 0 ? whenEmpty : minimum;
    }
}
