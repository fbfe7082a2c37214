using System.Buffers;
using System.Text;
using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class FixFramerGarbledTests
{
    private static readonly byte[] Valid = FixTestMessages.Wrap("35=0|49=CLIENT1|56=VENUE|34=2|52=20240315-14:30:00.000|");

    public static TheoryData<string, byte[], GarbledReason> GarbledCases()
    {
        byte[] badChecksum = (byte[])Valid.Clone();
        badChecksum[^2] = (byte)(badChecksum[^2] == (byte)'9' ? '0' : badChecksum[^2] + 1);
        byte[] flippedBody = (byte[])Valid.Clone();
        flippedBody[30] ^= 0x02;
        string body = "35=0|49=CLIENT1|56=VENUE|34=2|52=20240315-14:30:00.000|";
        int length = Encoding.ASCII.GetByteCount(body);

        return new TheoryData<string, byte[], GarbledReason>
        {
            { "bad checksum", badChecksum, GarbledReason.CheckSumMismatch },
            { "flipped body byte", flippedBody, GarbledReason.CheckSumMismatch },
            { "body length too short", WithHeader($"8=FIX.4.4|9={length - 1}|", body, "10=000|"), GarbledReason.BodyLengthMismatch },
            { "body length too long", WithHeader($"8=FIX.4.4|9={length + 1}|", body, "X10=000|"), GarbledReason.BodyLengthMismatch },
            { "body length not numeric", WithHeader("8=FIX.4.4|9=5x|", body, "10=000|"), GarbledReason.BadBodyLength },
            { "body length zero", WithHeader("8=FIX.4.4|9=0|", body, "10=000|"), GarbledReason.BadBodyLength },
            { "BodyLength not second", WithHeader($"8=FIX.4.4|35=0|9={length}|", body, "10=000|"), GarbledReason.BadBodyLength },
            { "MsgType not third", WithHeader($"8=FIX.4.4|9={length}|", "49=CLIENT1|35=0|56=VENUE|34=2|52=20240315-14:30:00.000|", "10=000|"), GarbledReason.MsgTypeNotThird },
            { "wrong BeginString", WithHeader($"8=FIX.4.2|9={length}|", body, "10=000|"), GarbledReason.BadBeginString },
            { "checksum not digits", WithHeader($"8=FIX.4.4|9={length}|", body, "10=0A0|"), GarbledReason.BadCheckSumFormat },
            { "oversized body length", WithHeader("8=FIX.4.4|9=999999|", body, string.Empty), GarbledReason.MessageTooLarge },
            { "leading garbage", FixTestMessages.Raw("garbage|"), GarbledReason.BadBeginString },
        };
    }

    [Theory]
    [MemberData(nameof(GarbledCases))]
    public void GarbledMessage_IsReported_AndTheNextMessageStillFrames(string name, byte[] garbled, GarbledReason expected)
    {
        byte[] stream = [.. garbled, .. Valid];
        var framer = new FixFramer();
        var buffer = new ReadOnlySequence<byte>(stream);

        FrameResult result = framer.TryReadFrame(buffer, out _, out SequencePosition consumed, out SequencePosition examined, out GarbledReason reason);

        Assert.True(result == FrameResult.Garbled, name);
        Assert.Equal(expected, reason);
        Assert.Equal(consumed, examined);
        Assert.Equal(garbled.Length, buffer.Slice(0, consumed).Length);
        buffer = buffer.Slice(consumed);
        Assert.Equal(FrameResult.Complete, framer.TryReadFrame(buffer, out ReadOnlySpan<byte> frame, out _, out _, out _));
        Assert.True(frame.SequenceEqual(Valid));
    }

    [Fact]
    public void GarbageWithoutMarker_IsSkippedEntirely_ButATrailingPartialMarkerIsKept()
    {
        byte[] stream = FixTestMessages.Raw("xxxxxxxxxx8=FI");
        var framer = new FixFramer();
        var buffer = new ReadOnlySequence<byte>(stream);

        Assert.Equal(FrameResult.Garbled, framer.TryReadFrame(buffer, out _, out SequencePosition consumed, out _, out _));
        Assert.Equal("8=FI", FixTestMessages.Show(buffer.Slice(consumed).ToArray()));
        Assert.Equal(FrameResult.Incomplete, framer.TryReadFrame(buffer.Slice(consumed), out _, out _, out _, out _));
    }

    [Fact]
    public void HugeDeclaredBodyLength_IsRejectedBeforeItsBytesArrive()
    {
        var framer = new FixFramer(maxMessageSize: 256);
        byte[] head = FixTestMessages.Raw("8=FIX.4.4|9=300|35=D|");

        Assert.Equal(FrameResult.Garbled, framer.TryReadFrame(new ReadOnlySequence<byte>(head), out _, out _, out _, out GarbledReason reason));
        Assert.Equal(GarbledReason.MessageTooLarge, reason);
    }

    [Fact]
    public void GarbageSplitOneBytePerSegment_ResyncsToTheMessage()
    {
        byte[] stream = [.. FixTestMessages.Raw("noise8=FIX.4.2|9=1|"), .. Valid];
        var framer = new FixFramer();
        ReadOnlySequence<byte> buffer = FixTestMessages.Segmented(stream, 1);
        int garbled = 0;
        while (true)
        {
            FrameResult result = framer.TryReadFrame(buffer, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out _, out _);
            buffer = buffer.Slice(consumed);
            if (result == FrameResult.Complete)
            {
                Assert.True(frame.SequenceEqual(Valid));
                break;
            }

            Assert.Equal(FrameResult.Garbled, result);
            Assert.True(++garbled < 10);
        }

        Assert.Equal(2, garbled);
        Assert.Equal(0, buffer.Length);
    }

    private static byte[] WithHeader(string head, string body, string trailer) => FixTestMessages.Raw(head + body + trailer);
}
