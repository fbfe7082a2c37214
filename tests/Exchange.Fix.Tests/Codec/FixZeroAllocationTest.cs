using System.Buffers;
using Exchange.Core.Commands;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Mapping;
using Xunit;
using Exchange.Tests.Shared;

namespace Exchange.Fix.Tests.Codec;

/// <summary>frame → parse → validate → map to Command → encode ExecutionReport allocates nothing after warm-up.</summary>
[Collection(ZeroAllocationCollection.Name)]
public class FixZeroAllocationTest
{
    private const int Iterations = 100_000;

    [Fact]
    public void InboundOrderToOutboundFill_AllocatesNothing()
    {
        byte[] wire = FixTestMessages.Wrap(FixTestMessages.NewOrderBody);
        var contiguous = new ReadOnlySequence<byte>(wire);
        ReadOnlySequence<byte> segmented = FixTestMessages.Segmented(wire, 50);
        var framer = new FixFramer();
        var message = new FixMessage();
        FixDictionary dictionary = FixDictionary.Fix44;
        InstrumentDirectory instruments = FixTestMessages.Instruments();
        byte[] output = new byte[FixMessageWriter.TypicalMaxLength];
        long checksum = 0;

        void Step(in ReadOnlySequence<byte> input, int i)
        {
            if (framer.TryReadFrame(input, out ReadOnlySpan<byte> frame, out _, out _, out _) != FrameResult.Complete ||
                !message.Parse(frame, dictionary) ||
                !NewOrderSingleReader.Read(message, instruments, 1, i, out Command command).IsOk)
            {
                throw new InvalidOperationException("pipeline failed");
            }

            var fill = new EngineEvent
            {
                Type = EventType.Trade,
                Side = command.Side,
                OrderType = command.OrderType,
                OrderId = i + 1,
                Price = command.Price,
                OrderQuantity = command.Quantity,
                LeavesQuantity = command.Quantity / 2,
                CumulativeQuantity = command.Quantity / 2,
                CumulativeNotional = command.Price * (command.Quantity / 2),
                LastPrice = command.Price,
                LastQuantity = command.Quantity / 2,
                EventId = i,
                Timestamp = command.Timestamp,
                ClOrdId = command.ClOrdId,
            };
            checksum += ExecutionReportEncoder.Encode(
                output, new FixHeader("VENUE"u8, message.SenderCompId, i + 1, i), fill, instruments.SymbolOf(command.InstrumentId), 4);
        }

        for (int i = 0; i < 2000; i++)
        {
            Step(contiguous, i);
            Step(segmented, i);
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < Iterations; i++)
        {
            Step((i & 1) == 0 ? contiguous : segmented, i);
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        Assert.True(checksum > 0);
    }

    [Fact]
    public void RepeatingGroupValidation_AllocatesNothing_WalkedOrPlanned()
    {
        // Alternating a clean nested-group layout (planned) with a bad count (walked every time) covers both paths.
        byte[] good = FixTestMessages.Wrap(RepeatingGroupTestData.NewOrderWith(RepeatingGroupTestData.NestedParties));
        byte[] bad = FixTestMessages.Wrap(RepeatingGroupTestData.NewOrderWith(RepeatingGroupTestData.NestedParties.Replace("802=2", "802=3", StringComparison.Ordinal)));
        var message = new FixMessage();
        FixDictionary dictionary = FixDictionary.Fix44;
        int accepted = 0;
        for (int i = 0; i < 2000; i++)
        {
            accepted += message.Parse((i & 1) == 0 ? good : bad, dictionary) ? 1 : 0;
        }

        accepted = 0;
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < Iterations; i++)
        {
            accepted += message.Parse((i & 1) == 0 ? good : bad, dictionary) ? 1 : 0;
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        Assert.Equal(Iterations / 2, accepted);
    }

    [Fact]
    public void DataFieldTokenizing_AllocatesNothing()
    {
        // A DATA value holding SOHs (read by its count) alternating with a count that does not match it (rejected).
        string body = DataFieldTestData.NewOrderWithEncodedText(DataFieldTestData.Tricky);
        byte[] good = FixTestMessages.Wrap(body);
        byte[] bad = FixTestMessages.Wrap(body.Replace($"354={DataFieldTestData.Tricky.Length}|", "354=5|", StringComparison.Ordinal));
        var message = new FixMessage();
        FixDictionary dictionary = FixDictionary.Fix44;
        int accepted = 0;
        for (int i = 0; i < 2000; i++)
        {
            accepted += message.Parse((i & 1) == 0 ? good : bad, dictionary) ? 1 : 0;
            accepted += message.Parse((i & 1) == 0 ? good : bad) ? 1 : 0;
        }

        accepted = 0;
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < Iterations; i++)
        {
            accepted += message.Parse((i & 1) == 0 ? good : bad, dictionary) ? 1 : 0;
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        Assert.Equal(Iterations / 2, accepted);
    }
}
