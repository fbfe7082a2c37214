using System.Buffers;
using System.Text;
using Exchange.Core.Domain;
using Exchange.Fix.Mapping;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// Builds wire messages for tests. BodyLength and CheckSum are computed here with the plainest possible code,
/// independently of the production codec, so the codec is checked against the FIX definition, not against itself.
/// '|' stands for SOH.
/// </summary>
internal static class FixTestMessages
{
    public const string NewOrderBody =
        "35=D|49=CLIENT1|56=VENUE|34=7|52=20240315-14:30:00.123|11=ORD-1|55=AAPL|54=1|60=20240315-14:30:00.120|38=100|40=2|44=143.42|59=0|";

    public static byte[] Wrap(string body)
    {
        string withSoh = body.Replace('|', '\u0001');
        string head = $"8=FIX.4.4\u00019={Encoding.ASCII.GetByteCount(withSoh)}\u0001";
        string message = head + withSoh;
        return Encoding.ASCII.GetBytes(message + $"10={Checksum(Encoding.ASCII.GetBytes(message)):D3}\u0001");
    }

    public static byte[] Raw(string text) => Encoding.ASCII.GetBytes(text.Replace('|', '\u0001'));

    public static int Checksum(byte[] bytes)
    {
        int sum = 0;
        foreach (byte b in bytes)
        {
            sum += b;
        }

        return sum % 256;
    }

    public static string Show(ReadOnlySpan<byte> bytes) => Encoding.ASCII.GetString(bytes).Replace('\u0001', '|');

    public static InstrumentDirectory Instruments() => new(
    [
        new Instrument(0, "AAPL", 4, 100, 1, 100, 10_000_000),
        new Instrument(1, "MSFT", 2, 1, 10, 1, 1_000_000),
    ]);

    /// <summary>A sequence whose segments are the given chunks (e.g. one byte each).</summary>
    public static ReadOnlySequence<byte> Segmented(byte[] data, int chunk)
    {
        var chunks = new List<byte[]>();
        for (int i = 0; i < data.Length; i += chunk)
        {
            chunks.Add(data.AsSpan(i, Math.Min(chunk, data.Length - i)).ToArray());
        }

        return Segmented(chunks);
    }

    public static ReadOnlySequence<byte> Segmented(IReadOnlyList<byte[]> chunks)
    {
        if (chunks.Count == 0)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        var first = new Segment(chunks[0], 0);
        Segment last = first;
        for (int i = 1; i < chunks.Count; i++)
        {
            last = last.Append(chunks[i]);
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(byte[] data, long runningIndex)
        {
            Memory = data;
            RunningIndex = runningIndex;
        }

        public Segment Append(byte[] data)
        {
            var next = new Segment(data, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }
}
