using System.Diagnostics;

namespace Exchange.Fix.Session;

/// <summary>
/// Builds the body of a session-generated message as tag=value&lt;SOH&gt; fields into a caller-owned buffer. The
/// session keeps one buffer sized for its largest admin message, so building allocates nothing. Overflow is a bug
/// (admin bodies are bounded; free text is truncated by the caller), hence the Debug.Assert rather than a result code.
/// </summary>
internal ref struct BodyWriter
{
    private const byte Soh = 0x01;

    private readonly Span<byte> _buffer;
    private int _length;

    public BodyWriter(Span<byte> buffer)
    {
        _buffer = buffer;
        _length = 0;
    }

    public readonly ReadOnlySpan<byte> Written => _buffer[.._length];

    public void Int(int tag, long value)
    {
        BeginField(tag);
        Append(value);
        EndField();
    }

    public void Bytes(int tag, ReadOnlySpan<byte> value)
    {
        BeginField(tag);
        Append(value);
        EndField();
    }

    public void Char(int tag, byte value)
    {
        BeginField(tag);
        _buffer[_length++] = value;
        EndField();
    }

    /// <summary>Starts a field whose value is composed with <see cref="Append(ReadOnlySpan{byte})"/> calls.</summary>
    public void BeginField(int tag)
    {
        Append(tag);
        _buffer[_length++] = (byte)'=';
    }

    public void EndField() => _buffer[_length++] = Soh;

    public void Append(ReadOnlySpan<byte> text)
    {
        // A value must never carry SOH; session texts are ASCII literals and echoed ids the codec already split on SOH.
        int n = Math.Min(text.Length, _buffer.Length - _length - 1);
        Debug.Assert(n == text.Length, "session body buffer too small");
        text[..n].CopyTo(_buffer[_length..]);
        _length += n;
    }

    public void Append(long value)
    {
        bool ok = value.TryFormat(_buffer[_length..], out int written, default, System.Globalization.CultureInfo.InvariantCulture);
        Debug.Assert(ok, "session body buffer too small");
        _length += written;
    }
}
