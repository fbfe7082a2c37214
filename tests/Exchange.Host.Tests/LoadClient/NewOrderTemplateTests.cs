using System.Buffers;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.LoadClient.Orders;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Host.Tests.LoadClient;

[Collection(ZeroAllocationCollection.Name)]
public class NewOrderTemplateTests
{
    private static readonly long Noon = new DateTimeOffset(2026, 11, 22, 12, 0, 0, TimeSpan.Zero).ToUnixTimeMilliseconds() * 1_000_000;

    [Theory]
    [InlineData(Side.Buy, TimeInForce.Day, 1, 0L, 999_900L)]
    [InlineData(Side.Sell, TimeInForce.ImmediateOrCancel, 123_456_789, 42L, 1_000_500L)]
    [InlineData(Side.Buy, TimeInForce.ImmediateOrCancel, NewOrderTemplate.MaxSeqNum, ClOrdIdCodec.MaxNumber, 9_999_999_999L)]
    public void Stamped_IsAValidNewOrderSingle(Side side, TimeInForce tif, int seqNum, long number, long price)
    {
        var codec = new ClOrdIdCodec("RUN0001");
        var template = new NewOrderTemplate("LOADGEN", "EXCH", codec, "AAPL", side, tif, 100, 4);
        long sendingTime = Noon + 123_456_789;

        template.Stamp(seqNum, sendingTime, OrderKind.Flow, number, price);

        FixMessage message = FrameAndParse(template.Message);
        Assert.Equal(FixFieldError.None, FixDictionary.Fix44.Validate(message));
        Assert.Equal(FixMsgType.NewOrderSingle, message.MsgTypeKind);
        Assert.Equal("LOADGEN"u8.ToArray(), message.SenderCompId.ToArray());
        Assert.Equal("EXCH"u8.ToArray(), message.TargetCompId.ToArray());
        Assert.Equal(FieldStatus.Ok, message.ReadMsgSeqNum(out int readSeq));
        Assert.Equal(seqNum, readSeq);
        Assert.Equal(FieldStatus.Ok, message.ReadSendingTime(out long readTime));
        Assert.Equal(Noon + 123_000_000, readTime);
        Assert.Equal(FieldStatus.Ok, message.ReadTimestamp(FixTags.TransactTime, out long transactTime));
        Assert.Equal(readTime, transactTime);
        Assert.True(codec.TryRead(message.GetSpan(FixTags.ClOrdID), out OrderKind kind, out long readNumber));
        Assert.Equal(OrderKind.Flow, kind);
        Assert.Equal(number, readNumber);
        Assert.Equal(FieldStatus.Ok, message.ReadPrice(FixTags.Price, 4, out long readPrice));
        Assert.Equal(price, readPrice);
        Assert.Equal(FieldStatus.Ok, message.ReadChar(FixTags.Side, out byte readSide));
        Assert.Equal((byte)side, readSide);
        Assert.Equal(FieldStatus.Ok, message.ReadChar(FixTags.TimeInForce, out byte readTif));
        Assert.Equal((byte)tif, readTif);
        Assert.Equal(FieldStatus.Ok, message.ReadChar(FixTags.OrdType, out byte ordType));
        Assert.Equal((byte)'2', ordType);
        Assert.Equal("AAPL"u8.ToArray(), message.GetSpan(FixTags.Symbol).ToArray());
        Assert.Equal(FieldStatus.Ok, message.ReadLong(FixTags.OrderQty, out long quantity));
        Assert.Equal(100, quantity);
    }

    [Fact]
    public void RepeatedStamps_KeepTheChecksumRight()
    {
        // The checksum is maintained incrementally; the framer recomputes it from scratch on every message.
        var template = new NewOrderTemplate("LOADGEN", "EXCH", new ClOrdIdCodec("RUN0001"), "MSFT", Side.Sell, TimeInForce.Day, 100, 4);
        var random = new Random(7);
        for (int i = 1; i <= 2_000; i++)
        {
            template.Stamp(i * 977, Noon + (random.NextInt64(0, 86_400_000) * 1_000_000), i % 3 == 0 ? OrderKind.Prepopulate : OrderKind.Flow,
                random.NextInt64(0, ClOrdIdCodec.MaxNumber), random.NextInt64(1, 100_000_000));
            FixMessage message = FrameAndParse(template.Message);
            Assert.Equal(FieldStatus.Ok, message.ReadMsgSeqNum(out int seq));
            Assert.Equal(i * 977, seq);
        }
    }

    [Fact]
    public void FixedWidthFields_KeepTheLengthConstant()
    {
        var template = new NewOrderTemplate("LOADGEN", "EXCH", new ClOrdIdCodec("RUN0001"), "AAPL", Side.Buy, TimeInForce.Day, 100, 4);
        template.Stamp(1, Noon, OrderKind.Flow, 0, 1);
        int length = template.Length;
        template.Stamp(NewOrderTemplate.MaxSeqNum, Noon, OrderKind.Flow, ClOrdIdCodec.MaxNumber, 9_999_999_999);
        Assert.Equal(length, template.Message.Length);
    }

    [Fact]
    public void ValuesThatDoNotFit_Throw()
    {
        var template = new NewOrderTemplate("LOADGEN", "EXCH", new ClOrdIdCodec("RUN0001"), "AAPL", Side.Buy, TimeInForce.Day, 100, 4);
        Assert.Throws<ArgumentOutOfRangeException>(() => template.Stamp(1, Noon, OrderKind.Flow, 0, 10_000_000_000));
        Assert.Throws<ArgumentOutOfRangeException>(() => template.Stamp(-1, Noon, OrderKind.Flow, 0, 1));
    }

    [Fact]
    public void Stamp_AllocatesNothing()
    {
        var template = new NewOrderTemplate("LOADGEN", "EXCH", new ClOrdIdCodec("RUN0001"), "AAPL", Side.Buy, TimeInForce.Day, 100, 4);
        for (int i = 1; i <= 100; i++)
        {
            template.Stamp(i, Noon + i, OrderKind.Flow, i, 1_000_000 + i);
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 1; i <= 10_000; i++)
        {
            template.Stamp(i, Noon + (i * 1_000_000L), OrderKind.Flow, i, 1_000_000 + i);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    internal static FixMessage FrameAndParse(ReadOnlySpan<byte> bytes)
    {
        var framer = new FixFramer();
        var sequence = new ReadOnlySequence<byte>(bytes.ToArray());
        Assert.Equal(FrameResult.Complete, framer.TryReadFrame(sequence, out ReadOnlySpan<byte> frame, out SequencePosition consumed, out _, out _));
        Assert.Equal(sequence.End, consumed);
        var message = new FixMessage();
        Assert.True(message.Parse(frame));
        return message;
    }
}
