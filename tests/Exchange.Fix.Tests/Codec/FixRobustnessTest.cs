using System.Buffers;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Mapping;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// Seeded random streams of valid, garbage, truncated, oversized and bit-flipped messages, delivered in random
/// chunks the way a PipeReader would: nothing throws, the unconsumed buffer never exceeds the framer's bound, and a
/// valid message after the noise is still parsed.
/// </summary>
public class FixRobustnessTest
{
    private const int MaxMessageSize = 1024;
    private const int MaxChunk = 64;

    internal static readonly byte[][] ValidMessages =
    [
        FixTestMessages.Wrap(FixTestMessages.NewOrderBody),
        FixTestMessages.Wrap("35=0|49=CLIENT1|56=VENUE|34=8|52=20240315-14:30:01.000|"),
        FixTestMessages.Wrap("35=F|49=C|56=V|34=9|52=20240315-14:30:00.000|41=A|11=B|55=AAPL|54=1|60=20240315-14:30:00.000|"),

        // SOH and a trailer look-alike inside a DATA value; bit flips in its count must be rejected, never thrown.
        FixTestMessages.Wrap(DataFieldTestData.NewOrderWithEncodedText(DataFieldTestData.Tricky)),
    ];

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void RandomNoise_NeverThrows_StaysBounded_AndValidMessagesSurvive(int seed)
    {
        var random = new Random(seed);
        var stream = new List<byte>();
        for (int i = 0; i < 400; i++)
        {
            stream.AddRange(NextPiece(random));
        }

        // Flush: more than one maximum message of plain noise resolves any frame still waiting for bytes.
        stream.AddRange(Enumerable.Repeat((byte)'x', MaxMessageSize + 1));
        byte[] sentinel = FixTestMessages.Wrap("35=1|49=CLIENT1|56=VENUE|34=99|52=20240315-14:30:02.000|112=LAST|");
        stream.AddRange(sentinel);

        int validFrames = 0;
        bool sentinelSeen = false;
        var framer = new FixFramer(MaxMessageSize);
        var message = new FixMessage(MaxMessageSize);
        InstrumentDirectory instruments = FixTestMessages.Instruments();
        var pending = new List<byte[]>();
        int pendingBytes = 0;
        int position = 0;
        while (position < stream.Count)
        {
            int chunk = Math.Min(random.Next(1, MaxChunk + 1), stream.Count - position);
            pending.Add(stream.GetRange(position, chunk).ToArray());
            pendingBytes += chunk;
            position += chunk;

            ReadOnlySequence<byte> buffer = FixTestMessages.Segmented(pending);
            while (true)
            {
                FrameResult result = framer.TryReadFrame(buffer, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out _, out _);
                if (result == FrameResult.Incomplete)
                {
                    break;
                }

                if (result == FrameResult.Complete)
                {
                    message.Parse(frame);
                    FixDictionary.Fix44.Validate(message);
                    NewOrderSingleReader.Read(message, instruments, 1, 0, out _);
                    foreach (byte[] valid in ValidMessages)
                    {
                        validFrames += frame.SequenceEqual(valid) ? 1 : 0;
                    }

                    sentinelSeen |= frame.SequenceEqual(sentinel);
                }

                long before = buffer.Length;
                buffer = buffer.Slice(consumed);
                Assert.True(buffer.Length < before, "a non-incomplete result must consume bytes");
            }

            pending = buffer.Length == 0 ? [] : [buffer.ToArray()];
            pendingBytes = (int)buffer.Length;
            Assert.True(pendingBytes <= MaxMessageSize + MaxChunk, $"pending grew to {pendingBytes}");
        }

        Assert.True(sentinelSeen);
        Assert.True(validFrames > 20, $"only {validFrames} intact messages were framed");
    }

    /// <summary>One piece of a noisy stream: a valid message, random bytes, a truncated, oversized or bit-flipped one.</summary>
    internal static byte[] NextPiece(Random random)
    {
        byte[] valid = ValidMessages[random.Next(ValidMessages.Length)];
        switch (random.Next(6))
        {
            case 0:
            case 1:
                return valid;
            case 2:
                byte[] garbage = new byte[random.Next(1, 200)];
                random.NextBytes(garbage);
                return garbage;
            case 3:
                return valid[..random.Next(1, valid.Length)];
            case 4:
                return FixTestMessages.Raw($"8=FIX.4.4|9={random.Next(MaxMessageSize, 999_999)}|35=D|" + new string('z', random.Next(0, 300)));
            default:
                byte[] flipped = (byte[])valid.Clone();
                int flips = random.Next(1, 4);
                for (int i = 0; i < flips; i++)
                {
                    flipped[random.Next(flipped.Length)] ^= (byte)(1 << random.Next(8));
                }

                return flipped;
        }
    }
}
