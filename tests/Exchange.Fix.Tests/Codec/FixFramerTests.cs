using System.Buffers;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class FixFramerTests
{
    private static readonly byte[] Message = FixTestMessages.Wrap(FixTestMessages.NewOrderBody);

    [Fact]
    public void WholeMessage_InOneSegment_IsComplete_AndConsumedExactly()
    {
        var framer = new FixFramer();
        var buffer = new ReadOnlySequence<byte>(Message);

        FrameResult result = framer.TryReadFrame(buffer, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out SequencePosition examined, out _);

        Assert.Equal(FrameResult.Complete, result);
        Assert.True(frame.SequenceEqual(Message));
        Assert.Equal(Message.Length, buffer.Slice(0, consumed).Length);
        Assert.Equal(consumed, examined);
    }

    [Fact]
    public void EveryPrefix_IsIncomplete_AndConsumesNothing()
    {
        var framer = new FixFramer();
        for (int length = 0; length < Message.Length; length++)
        {
            var buffer = new ReadOnlySequence<byte>(Message, 0, length);
            FrameResult result = framer.TryReadFrame(buffer, out _, out SequencePosition consumed, out SequencePosition examined, out _);

            Assert.True(result == FrameResult.Incomplete, $"prefix of {length} bytes gave {result}");
            Assert.Equal(0, buffer.Slice(buffer.Start, consumed).Length);
            Assert.Equal(length, buffer.Slice(buffer.Start, examined).Length);
        }
    }

    [Fact]
    public void EveryPrefix_SplitOneBytePerSegment_IsIncomplete()
    {
        var framer = new FixFramer();
        for (int length = 1; length < Message.Length; length++)
        {
            ReadOnlySequence<byte> buffer = FixTestMessages.Segmented(Message[..length], 1);
            Assert.Equal(FrameResult.Incomplete, framer.TryReadFrame(buffer, out _, out SequencePosition consumed, out _, out _));
            Assert.Equal(buffer.Start, consumed);
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(7)]
    [InlineData(31)]
    public void MessageSplitIntoSegments_ParsesIdenticallyToContiguous(int chunk)
    {
        var framer = new FixFramer();
        ReadOnlySequence<byte> buffer = FixTestMessages.Segmented(Message, chunk);
        Assert.False(buffer.IsSingleSegment);

        FrameResult result = framer.TryReadFrame(buffer, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out _, out _);

        Assert.Equal(FrameResult.Complete, result);
        Assert.True(frame.SequenceEqual(Message));
        Assert.Equal(buffer.End, consumed);
        var segmented = new FixMessage();
        var contiguous = new FixMessage();
        Assert.True(segmented.Parse(frame));
        Assert.True(contiguous.Parse(Message));
        Assert.Equal(contiguous.FieldCount, segmented.FieldCount);
        for (int i = 0; i < contiguous.FieldCount; i++)
        {
            Assert.Equal(contiguous.TagAt(i), segmented.TagAt(i));
            Assert.True(contiguous.ValueAt(i).SequenceEqual(segmented.ValueAt(i)));
        }
    }

    [Fact]
    public void TwoMessagesBackToBack_AreFramedInTurn()
    {
        byte[] second = FixTestMessages.Wrap("35=0|49=CLIENT1|56=VENUE|34=8|52=20240315-14:30:01.000|");
        byte[] both = [.. Message, .. second];
        var framer = new FixFramer();
        foreach (ReadOnlySequence<byte> start in new[] { new ReadOnlySequence<byte>(both), FixTestMessages.Segmented(both, 5) })
        {
            ReadOnlySequence<byte> buffer = start;
            Assert.Equal(FrameResult.Complete, framer.TryReadFrame(buffer, out ReadOnlySpan<byte> frame1, out SequencePosition consumed, out _, out _));
            Assert.True(frame1.SequenceEqual(Message));
            buffer = buffer.Slice(consumed);
            Assert.Equal(FrameResult.Complete, framer.TryReadFrame(buffer, out ReadOnlySpan<byte> frame2, out consumed, out _, out _));
            Assert.True(frame2.SequenceEqual(second));
            buffer = buffer.Slice(consumed);
            Assert.Equal(0, buffer.Length);
            Assert.Equal(FrameResult.Incomplete, framer.TryReadFrame(buffer, out _, out _, out _, out _));
        }
    }

    [Fact]
    public void MinimalMessage_ShorterThanTheHeadProbe_IsComplete_WhenSegmented()
    {
        byte[] tiny = FixTestMessages.Wrap("35=0|");
        Assert.True(tiny.Length < 32);
        var framer = new FixFramer();

        Assert.Equal(FrameResult.Complete, framer.TryReadFrame(FixTestMessages.Segmented(tiny, 1), out ReadOnlySpan<byte> frame, out _, out _, out _));
        Assert.True(frame.SequenceEqual(tiny));
    }

    [Fact]
    public void DataValueHoldingSohAndATrailer_OneBytePerSegment_IsFramedByBodyLength_AndParsedAsOneValue()
    {
        // The DATA value holds SOH, "10=nnn|", "9=" and "8=FIX.4.4|": framing goes by BodyLength and CheckSum over every
        // byte, so none of it may end the frame early or fail the checksum.
        byte[] wire = FixTestMessages.Wrap(DataFieldTestData.NewOrderWithEncodedText(DataFieldTestData.Tricky));
        var framer = new FixFramer();
        var message = new FixMessage();
        foreach (ReadOnlySequence<byte> buffer in new[] { new ReadOnlySequence<byte>(wire), FixTestMessages.Segmented(wire, 1) })
        {
            Assert.Equal(FrameResult.Complete, framer.TryReadFrame(buffer, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out _, out _));
            Assert.True(frame.SequenceEqual(wire));
            Assert.Equal(buffer.End, consumed);

            Assert.True(message.Parse(frame, FixDictionary.Fix44), message.Validation.ToString());
            Assert.Equal(DataFieldTestData.Tricky, FixTestMessages.Show(message.GetSpan(355)));
        }
    }
}
