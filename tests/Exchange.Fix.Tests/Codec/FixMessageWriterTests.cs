using System.Buffers;
using Exchange.Fix.Codec;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class FixMessageWriterTests
{
    private static readonly long SendingTime = FieldTypeTestData.Nanos(2024, 3, 15, 14, 30, 0, 123_456_789);

    /// <summary>
    /// The Java study's reference ExecutionReport, encoded with the generic writer and compared byte for byte with a
    /// message whose BodyLength and CheckSum this test computes itself.
    /// </summary>
    [Fact]
    public void GoldenExecutionReport_MatchesByteForByte()
    {
        var buffer = new byte[512];
        var w = new FixMessageWriter(buffer);
        w.Begin("8"u8, new FixHeader("TS"u8, "CLIENT1"u8, 1, SendingTime));
        w.AddSpan(FixTags.OrderID, "O123456789"u8);
        w.AddInt(FixTags.ExecID, 1111);
        w.AddChar(FixTags.ExecType, (byte)'F');
        w.AddSpan(FixTags.ClOrdID, "C056"u8);
        w.AddChar(FixTags.OrdStatus, (byte)'1');
        w.AddChar(FixTags.Side, (byte)'1');
        w.AddInt(FixTags.LeavesQty, 100);
        w.AddInt(FixTags.CumQty, 1900);
        w.AddPrice(FixTags.AvgPx, 1_434_000, 4);
        w.AddInt(FixTags.OrderQty, 2000);
        w.AddSpan(FixTags.Symbol, "AAPL"u8);
        w.AddInt(FixTags.LastQty, 1000);
        w.AddPrice(FixTags.LastPx, 143_42, 2);
        int length = w.Finish();

        byte[] expected = FixTestMessages.Wrap(
            "35=8|49=TS|56=CLIENT1|34=1|52=20240315-14:30:00.123|37=O123456789|17=1111|150=F|11=C056|39=1|54=1|151=100|14=1900|6=143.4|38=2000|55=AAPL|32=1000|31=143.42|");
        Assert.Equal(FixTestMessages.Show(expected), FixTestMessages.Show(buffer.AsSpan(0, length)));
        Assert.True(buffer.AsSpan(0, length).SequenceEqual(expected));
    }

    /// <summary>
    /// Framing a stored body (the session path) sums the body while copying it and reads back only the header: the
    /// CheckSum must still be the whole message's, also when a BodyLength of other than 3 digits moves the body.
    /// </summary>
    [Theory]
    [InlineData(0, false)]
    [InlineData(5, false)]
    [InlineData(40, true)]
    [InlineData(900, false)]
    [InlineData(1500, true)]
    public void FramedBody_MatchesAnIndependentlyWrappedMessage(int textLength, bool possDup)
    {
        string fields = textLength > 0 ? $"58={new string('y', textLength - 1)}z|" : string.Empty;
        byte[] body = FixTestMessages.Raw(fields);
        var header = new FixHeader("VENUE"u8, "C"u8, 12, SendingTime) { PossDup = possDup, OrigSendingTime = SendingTime - 1_000_000_000 };
        var buffer = new byte[FixFields.MaxFrameLength("8"u8, header, body.Length)];
        int length = FixFields.Frame(buffer, "8"u8, header, body);

        string head = "35=8|49=VENUE|56=C|34=12|" + (possDup ? "43=Y|52=20240315-14:30:00.123|122=20240315-14:29:59.123|" : "52=20240315-14:30:00.123|");
        Assert.Equal(FixTestMessages.Show(FixTestMessages.Wrap(head + fields)), FixTestMessages.Show(buffer.AsSpan(0, length)));
        int room = buffer.Length;
        Assert.Throws<ArgumentException>(() => FixFields.Frame(
            new byte[room - 1], "8"u8, new FixHeader("VENUE"u8, "C"u8, 12, SendingTime) { PossDup = possDup }, body));
    }

    /// <summary>Span values of every length the copy special-cases (empty, 1..3, 4..7, 8..16) and beyond, each
    /// written exactly, with distinct bytes so a misplaced or dropped byte shows, and nothing past its SOH.</summary>
    [Fact]
    public void SpanValues_OfEveryShortLength_AreCopiedExactly()
    {
        for (int n = 0; n <= 40; n++)
        {
            string value = string.Concat(Enumerable.Range(0, n).Select(i => (char)('A' + (i % 26))));
            var buffer = new byte[256];
            var w = new FixMessageWriter(buffer);
            w.AddSpan(FixTags.Text, System.Text.Encoding.ASCII.GetBytes(value));
            w.AddInt(FixTags.MsgSeqNum, n);
            Assert.Equal($"58={value}|34={n}|", FixTestMessages.Show(buffer.AsSpan(0, w.Length)));
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(40)]
    [InlineData(49)] // BodyLength 99
    [InlineData(50)] // 100: the first of the three reserved digits, summed before they are stored
    [InlineData(900)]
    [InlineData(949)] // 999
    [InlineData(950)] // 1000
    [InlineData(1500)]
    public void BodyLength_IsRight_ForShortAndLongBodies(int textLength)
    {
        string text = new('x', textLength);
        var buffer = new byte[4096];
        var w = new FixMessageWriter(buffer);
        w.Begin("5"u8, new FixHeader("V"u8, "C"u8, 12, SendingTime));
        if (textLength > 0)
        {
            w.AddSpan(FixTags.Text, System.Text.Encoding.ASCII.GetBytes(text));
        }

        int length = w.Finish();

        string body = "35=5|49=V|56=C|34=12|52=20240315-14:30:00.123|" + (textLength > 0 ? $"58={text}|" : string.Empty);
        Assert.Contains($"\u00019={body.Length}\u0001", System.Text.Encoding.ASCII.GetString(buffer, 0, 24));
        Assert.True(buffer.AsSpan(0, length).SequenceEqual(FixTestMessages.Wrap(body)));
        Assert.Equal(FrameResult.Complete, new FixFramer().TryReadFrame(new ReadOnlySequence<byte>(buffer, 0, length), out _, out _, out _, out _));
    }

    [Fact]
    public void PossDupResend_WritesPossDupAndOrigSendingTime()
    {
        var buffer = new byte[512];
        var w = new FixMessageWriter(buffer);
        w.Begin("8"u8, new FixHeader("V"u8, "C"u8, 3, SendingTime) { PossDup = true, OrigSendingTime = SendingTime - 1_000_000_000 });
        w.AddRaw(FixTestMessages.Raw("17=9|"));
        w.AddBool(FixTags.GapFillFlag, false);
        w.AddTimestamp(FixTags.TransactTime, 0);
        int length = w.Finish();

        Assert.True(buffer.AsSpan(0, length).SequenceEqual(FixTestMessages.Wrap(
            "35=8|49=V|56=C|34=3|43=Y|52=20240315-14:30:00.123|122=20240315-14:29:59.123|17=9|123=N|60=19700101-00:00:00.000|")));
    }

    [Fact]
    public void FinishTo_AdvancesTheBufferWriter()
    {
        var output = new ArrayBufferWriter<byte>();
        var w = new FixMessageWriter(output.GetSpan(FixMessageWriter.TypicalMaxLength));
        w.Begin("0"u8, new FixHeader("V"u8, "C"u8, 1, 0));
        int length = w.FinishTo(output);

        Assert.Equal(length, output.WrittenCount);
        Assert.True(output.WrittenSpan.SequenceEqual(FixTestMessages.Wrap("35=0|49=V|56=C|34=1|52=19700101-00:00:00.000|")));
    }
}
