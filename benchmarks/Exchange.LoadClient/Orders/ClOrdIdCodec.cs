using Exchange.Fix.Codec;

namespace Exchange.LoadClient.Orders;

/// <summary>
/// ClOrdID layout: kind (1 byte, <see cref="OrderKind"/>) + run id (7 characters [0-9A-Z]) + order number (10 digits,
/// zero-padded) = 18 bytes. Fixed width so the order template patches it in place, and the number indexes a
/// preallocated array when the reply comes back (no dictionary, no string). The run id keeps ClOrdIDs unique across
/// repeated runs against a venue that remembers them.
/// </summary>
internal sealed class ClOrdIdCodec
{
    public const int RunIdLength = 7;

    public const int NumberDigits = 10;

    public const int Length = 1 + RunIdLength + NumberDigits;

    public const long MaxNumber = 9_999_999_999;

    private const int NumberOffset = 1 + RunIdLength;

    private readonly byte[] _runId;

    public ClOrdIdCodec(string runId)
    {
        if (!IsValidRunId(runId))
        {
            throw new ArgumentException($"A run id is {RunIdLength} characters 0-9 or A-Z.", nameof(runId));
        }

        _runId = System.Text.Encoding.ASCII.GetBytes(runId);
    }

    public ReadOnlySpan<byte> RunId => _runId;

    public static bool IsValidRunId(string? value)
    {
        if (value is null || value.Length != RunIdLength)
        {
            return false;
        }

        foreach (char c in value)
        {
            if (c is not ((>= '0' and <= '9') or (>= 'A' and <= 'Z')))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>A run id from a number (e.g. Unix seconds): its last 7 base-36 digits.</summary>
    public static string RunIdFrom(long seed)
    {
        const string digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        Span<char> text = stackalloc char[RunIdLength];
        ulong value = (ulong)seed;
        for (int i = RunIdLength - 1; i >= 0; i--)
        {
            text[i] = digits[(int)(value % 36)];
            value /= 36;
        }

        return new string(text);
    }

    /// <summary>Writes the whole ClOrdID into the first <see cref="Length"/> bytes of <paramref name="destination"/>.</summary>
    public void Write(OrderKind kind, long number, Span<byte> destination)
    {
        _runId.CopyTo(destination[1..]);
        WriteVariablePart(kind, number, destination);
    }

    /// <summary>Writes only the kind and the number (the run id is already in place, e.g. in a template).</summary>
    public static void WriteVariablePart(OrderKind kind, long number, Span<byte> destination)
    {
        if ((ulong)number > MaxNumber)
        {
            throw new ArgumentOutOfRangeException(nameof(number), number, "Order numbers have 10 digits.");
        }

        destination[0] = (byte)kind;
        FixInt.WriteDigits((ulong)number, destination.Slice(NumberOffset, NumberDigits));
    }

    /// <summary>Reads a ClOrdID written by this run; false for anything else (another run, another client, garbage).</summary>
    public bool TryRead(ReadOnlySpan<byte> clOrdId, out OrderKind kind, out long number)
    {
        kind = default;
        number = -1;
        if (clOrdId.Length != Length || !clOrdId.Slice(1, RunIdLength).SequenceEqual(_runId))
        {
            return false;
        }

        byte first = clOrdId[0];
        if (first != (byte)OrderKind.Flow && first != (byte)OrderKind.Prepopulate)
        {
            return false;
        }

        long value = 0;
        foreach (byte b in clOrdId[NumberOffset..])
        {
            uint digit = (uint)(b - '0');
            if (digit > 9)
            {
                return false;
            }

            value = (value * 10) + digit;
        }

        kind = (OrderKind)first;
        number = value;
        return true;
    }
}
