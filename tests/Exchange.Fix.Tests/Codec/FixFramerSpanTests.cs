using System.Buffers;
using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// The framer over one contiguous buffer (the Inline venue's socket buffer) against the framer over a
/// <see cref="ReadOnlySequence{T}"/>: the same results, reasons, frames and consumed bytes, message after message.
/// </summary>
public class FixFramerSpanTests
{
    private static readonly byte[] Message = FixTestMessages.Wrap(FixTestMessages.NewOrderBody);

    [Fact]
    public void EveryPrefix_IsIncomplete_AndConsumesNothing()
    {
        var framer = new FixFramer();
        for (int length = 0; length < Message.Length; length++)
        {
            FrameResult result = framer.TryReadFrame(Message.AsSpan(0, length), out ReadOnlySpan<byte> frame, out int consumed, out _);

            Assert.True(result == FrameResult.Incomplete, $"prefix of {length} bytes gave {result}");
            Assert.Equal(0, consumed);
            Assert.True(frame.IsEmpty);
        }
    }

    [Fact]
    public void WholeMessage_IsComplete_AndConsumedExactly()
    {
        byte[] withNext = [.. Message, .. "8=FI"u8];
        FrameResult result = new FixFramer().TryReadFrame(withNext, out ReadOnlySpan<byte> frame, out int consumed, out _);

        Assert.Equal(FrameResult.Complete, result);
        Assert.True(frame.SequenceEqual(Message));
        Assert.Equal(Message.Length, consumed);
    }

    [Theory]
    [InlineData("x8=FIX.4.4|9=5|", 1)]
    [InlineData("xx8=F", 2)]
    [InlineData("xyz", 3)]
    [InlineData("8=FIX.4.2|9=5|35=0|", 19)]
    [InlineData("8=FIX.4.4|9=abc|8=FIX", 16)]
    public void Garbled_ConsumesUpToTheNextPossibleMessageStart(string text, int expected)
    {
        byte[] bytes = FixTestMessages.Raw(text);
        Assert.Equal(FrameResult.Garbled, new FixFramer().TryReadFrame(bytes, out _, out int consumed, out _));
        Assert.Equal(expected, consumed);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    public void NoisyStreams_FrameAlike_AsOneSpan_OneSegment_AndSmallSegments(int seed)
    {
        var random = new Random(seed);
        var stream = new List<byte>();
        for (int i = 0; i < 300; i++)
        {
            stream.AddRange(FixRobustnessTest.NextPiece(random));
        }

        byte[] bytes = [.. stream];
        var spanFramer = new FixFramer(1024);
        var sequenceFramer = new FixFramer(1024);
        int at = 0;
        int steps = 0;
        while (at < bytes.Length)
        {
            ReadOnlySpan<byte> rest = bytes.AsSpan(at);
            FrameResult result = spanFramer.TryReadFrame(rest, out ReadOnlySpan<byte> frame, out int consumed, out GarbledReason reason);
            byte[] spanFrame = frame.ToArray();
            foreach (ReadOnlySequence<byte> sequence in new[] { new ReadOnlySequence<byte>(rest.ToArray()), FixTestMessages.Segmented(rest.ToArray(), random.Next(1, 8)) })
            {
                FrameResult other = sequenceFramer.TryReadFrame(sequence, out ReadOnlySpan<byte> otherFrame, out SequencePosition otherConsumed, out _, out GarbledReason otherReason);
                Assert.Equal(result, other);
                Assert.Equal(reason, otherReason);
                Assert.True(otherFrame.SequenceEqual(spanFrame), $"frames differ at byte {at}");
                Assert.Equal(result == FrameResult.Incomplete ? 0 : consumed, sequence.Slice(0, otherConsumed).Length);
            }

            if (result == FrameResult.Incomplete)
            {
                break;
            }

            Assert.True(consumed > 0);
            at += consumed;
            steps++;
        }

        Assert.True(steps > 200, $"only {steps} frames and resyncs, stopped at {at} of {bytes.Length}");
    }
}
