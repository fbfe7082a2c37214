using System.Buffers;
using Exchange.Fix.Tests.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// <see cref="Exchange.Fix.Gateway.ConnectionHandler.Process"/>'s consumed / examined positions: every complete
/// message is handled once, a trailing partial message is left unconsumed but examined, whatever the segmentation.
/// </summary>
public sealed class ConnectionHandlerProcessTests
{
    [Fact]
    public void Two_whole_messages_are_handled_and_consume_the_whole_buffer()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] both = [.. h.Message("D", GatewayHarness.NewOrder("A")), .. h.Message("D", GatewayHarness.NewOrder("B"))];
        var buffer = new ReadOnlySequence<byte>(both);

        h.Handler.Process(buffer, out SequencePosition consumed, out SequencePosition examined);

        Assert.Equal(["A", "B"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.Equal(both.Length, buffer.Slice(0, consumed).Length);
        Assert.Equal(both.Length, buffer.Slice(0, examined).Length);
    }

    [Fact]
    public void A_trailing_partial_message_is_examined_but_not_consumed()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] first = h.Message("D", GatewayHarness.NewOrder("A"));
        byte[] second = h.Message("D", GatewayHarness.NewOrder("B"));
        byte[] data = [.. first, .. second.AsSpan(0, second.Length - 3)];
        var buffer = new ReadOnlySequence<byte>(data);

        h.Handler.Process(buffer, out SequencePosition consumed, out SequencePosition examined);

        Assert.Equal(["A"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.Equal(first.Length, buffer.Slice(0, consumed).Length);
        Assert.Equal(data.Length, buffer.Slice(0, examined).Length);

        // The rest arrives: the second message is handled exactly once.
        h.Handler.Process(new ReadOnlySequence<byte>(second), out _, out _);
        Assert.Equal(["A", "B"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(64)]
    public void Messages_split_across_segments_are_handled_once_and_consume_everything(int chunk)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] data = [.. h.Message("D", GatewayHarness.NewOrder("A")), .. h.Message("D", GatewayHarness.NewOrder("B")), .. h.Message("D", GatewayHarness.NewOrder("C"))];
        ReadOnlySequence<byte> buffer = FixTestMessages.Segmented(data, chunk);

        h.Handler.Process(buffer, out SequencePosition consumed, out SequencePosition examined);

        Assert.Equal(["A", "B", "C"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.Equal(data.Length, buffer.Slice(0, consumed).Length);
        Assert.Equal(data.Length, buffer.Slice(0, examined).Length);
    }

    [Fact]
    public void Segments_ending_on_message_boundaries_consume_everything()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] first = h.Message("D", GatewayHarness.NewOrder("A"));
        byte[] second = h.Message("D", GatewayHarness.NewOrder("B"));
        ReadOnlySequence<byte> buffer = FixTestMessages.Segmented([first, second]);

        h.Handler.Process(buffer, out SequencePosition consumed, out SequencePosition examined);

        Assert.Equal(["A", "B"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.Equal(buffer.Length, buffer.Slice(0, consumed).Length);
        Assert.Equal(buffer.Length, buffer.Slice(0, examined).Length);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void A_contiguous_buffer_fed_in_random_reads_answers_as_one_byte_segments_do(int seed)
    {
        using var contiguous = new GatewayHarness();
        using var segmented = new GatewayHarness();
        contiguous.LogOn();
        segmented.LogOn();
        var random = new Random(seed);
        var stream = new List<byte>();
        for (int i = 0; i < 60; i++)
        {
            // Orders in sequence (each harness numbers its own alike), with garbage and broken frames between them.
            byte[] order = contiguous.Message("D", GatewayHarness.NewOrder($"O{i}"));
            segmented.NextClientSeq++;
            stream.AddRange(order);
            if (random.Next(3) == 0)
            {
                stream.AddRange(FixRobustnessTest.NextPiece(random).Where(b => b != (byte)'8'));
            }
        }

        byte[] bytes = [.. stream];
        int consumed = FeedInRandomReads(contiguous, bytes, random);
        segmented.Handler.Process(FixTestMessages.Segmented(bytes, 1), out _, out _);

        Assert.Equal(bytes.Length, consumed);
        Assert.Equal(60, contiguous.Publisher.Commands.Count);
        Assert.Equal(
            segmented.Publisher.Commands.Select(c => c.ClOrdId.ToString()),
            contiguous.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.Equal(segmented.Connection.Recorded.Flushed.ToArray(), contiguous.Connection.Recorded.Flushed.ToArray());
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    public void Noise_with_frame_starts_and_wrong_versions_is_handled_alike_contiguous_and_one_byte_per_segment(int seed)
    {
        // Unlike the test above, the noise keeps its "8=FIX" starts: resynchronising onto them, bit-flipped and
        // truncated frames, a foreign BeginString (a Logout) and out-of-sequence copies all take the same course.
        using var contiguous = new GatewayHarness();
        using var segmented = new GatewayHarness();
        contiguous.LogOn();
        segmented.LogOn();
        var random = new Random(seed);
        var stream = new List<byte>();
        for (int i = 0; i < 60; i++)
        {
            int kind = random.Next(100);
            if (kind < 2)
            {
                // A well-formed frame of another FIX version: the session logs out and the connection closes.
                stream.AddRange(FixTestMessages.Wrap("35=0|49=CLIENT1|56=VENUE|34=2|52=20260302-09:30:00.000|").Select((b, n) => n == 8 ? (byte)'2' : b));
            }
            else if (kind < 40)
            {
                // Broken frames and noise; an intact copy of another test message would be out of sequence here.
                byte[] piece = FixRobustnessTest.NextPiece(random);
                if (!FixRobustnessTest.ValidMessages.Any(valid => valid.AsSpan().SequenceEqual(piece)))
                {
                    stream.AddRange(piece);
                }
            }
            else
            {
                stream.AddRange(contiguous.Message("D", GatewayHarness.NewOrder($"O{i}")));
                segmented.NextClientSeq++;
            }
        }

        byte[] bytes = [.. stream];
        int consumed = FeedInRandomReads(contiguous, bytes, random);
        ReadOnlySequence<byte> all = FixTestMessages.Segmented(bytes, 1);
        segmented.Handler.Process(all, out SequencePosition segmentedConsumed, out _);

        Assert.Equal(segmented.Handler.CloseRequested, contiguous.Handler.CloseRequested);
        if (!contiguous.Handler.CloseRequested)
        {
            // Once closing, how far a garbled frame's resync reached depends on how much had arrived: it does not matter.
            Assert.Equal(all.Slice(0, segmentedConsumed).Length, consumed);
        }

        Assert.Equal(
            segmented.Publisher.Commands.Select(c => c.ClOrdId.ToString()),
            contiguous.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.Equal(segmented.Connection.Recorded.Flushed.ToArray(), contiguous.Connection.Recorded.Flushed.ToArray());
    }

    /// <summary>
    /// Hands <paramref name="bytes"/> to the span reader as a polled socket would: each read appends up to 200 bytes to
    /// what is still unconsumed; stops at the end or once the connection is closing. Returns the bytes consumed.
    /// </summary>
    private static int FeedInRandomReads(GatewayHarness h, byte[] bytes, Random random)
    {
        int received = 0;
        int consumed = 0;
        while (received < bytes.Length && !h.Handler.CloseRequested)
        {
            received = Math.Min(bytes.Length, received + random.Next(1, 200));
            consumed += h.Handler.Process(bytes.AsSpan(consumed, received - consumed));
        }

        return consumed;
    }
}
