using System.Globalization;
using System.Text.RegularExpressions;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Fix.Codec;
using Exchange.Fix.Mapping;
using Xunit;
using static Exchange.Fix.Tests.Codec.FieldTypeTestData;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// A whole ExecutionReport copies SendingTime's text into TransactTime when both fall in the same millisecond
/// (<see cref="FixTimestamp.SameMillisecond"/>) and formats TransactTime itself otherwise: either way both fields must
/// read exactly as an independent DateTime formatter writes them, across millisecond, second, day and year edges and
/// on a resend (PossDup, where SendingTime is not the header's last field).
/// </summary>
public class ExecutionReportTransactTimeTests
{
    private static readonly long NewYear = Nanos(2025, 1, 1, 0, 0, 0);

    public static TheoryData<long, long> Pairs => new()
    {
        { NewYear, NewYear }, // the same instant
        { NewYear, NewYear + 999_999 }, // same millisecond, different nanoseconds
        { NewYear + 999_999, NewYear }, // either way round
        { NewYear - 1, NewYear }, // .999 of the old year against the new year
        { NewYear, NewYear - 1 },
        { NewYear + 998_000_000, NewYear + 999_000_000 }, // .998 / .999
        { NewYear + 999_000_000, NewYear + 1_000_000_000 }, // .999 / the next second
        { Nanos(2024, 2, 28, 23, 59, 59, 999_999_999), Nanos(2024, 2, 29, 0, 0, 0) }, // into a leap day
        { 0, 0 }, // the epoch
        { 0, 999_999 },
        { 0, 1_000_000 },
        { long.MaxValue, long.MaxValue }, // 2262-04-11, the last representable time
        { long.MaxValue - 1, long.MaxValue },
        { NewYear, 0 }, // far apart
    };

    [Theory]
    [MemberData(nameof(Pairs))]
    public void TransactTime_ReadsAsItsOwnTime_WhetherCopiedOrFormatted(long sendingTime, long transactTime)
    {
        string wire = Encode(new FixHeader("TS"u8, "CLIENT1"u8, 9, sendingTime), transactTime);
        Assert.Equal(Reference(sendingTime), Field(wire, 52));
        Assert.Equal(Reference(transactTime), Field(wire, 60));
    }

    [Theory]
    [MemberData(nameof(Pairs))]
    public void OnAResend_TransactTimeIsStillItsOwn(long origSendingTime, long transactTime)
    {
        // 122 (OrigSendingTime) follows 52 on a resend: TransactTime must never be copied from the wrong field.
        long sendingTime = Nanos(2030, 6, 1, 12, 0, 0, 5_000_000);
        var header = new FixHeader("TS"u8, "CLIENT1"u8, 9, sendingTime) { PossDup = true, OrigSendingTime = origSendingTime };
        string wire = Encode(header, transactTime);
        Assert.Equal(Reference(sendingTime), Field(wire, 52));
        Assert.Equal(Reference(origSendingTime), Field(wire, 122));
        Assert.Equal(Reference(transactTime), Field(wire, 60));
    }

    [Theory]
    [InlineData(0L, 0L, true)]
    [InlineData(0L, 999_999L, true)]
    [InlineData(999_999L, 1_000_000L, false)]
    [InlineData(1_000_000L, 1_999_999L, true)]
    [InlineData(long.MaxValue, long.MaxValue - 1, true)]
    [InlineData(long.MaxValue, long.MaxValue - 1_000_000, false)]
    [InlineData(-1L, -1L, false)] // before the epoch: never claimed the same, the caller formats instead
    [InlineData(-1L, 0L, false)]
    [InlineData(0L, long.MinValue, false)]
    public void SameMillisecond_IsExact(long a, long b, bool expected)
    {
        Assert.Equal(expected, FixTimestamp.SameMillisecond(a, b));
        Assert.Equal(expected, FixTimestamp.SameMillisecond(b, a));
    }

    [Fact]
    public void SameMillisecond_AgreesWithTheFormattedText_OverRandomPairs()
    {
        var random = new Random(4242);
        for (int i = 0; i < 20_000; i++)
        {
            long a = random.NextInt64(0, Nanos(2261, 12, 31, 0, 0, 0));
            long b = a + (random.Next(3) switch
            {
                0 => random.NextInt64(-1_000_000, 1_000_000),
                1 => random.NextInt64(-2_000_000_000, 2_000_000_000),
                _ => 0,
            });
            b = Math.Max(b, 0);
            Assert.Equal(Reference(a) == Reference(b), FixTimestamp.SameMillisecond(a, b));
        }
    }

    private static string Encode(in FixHeader header, long transactTime)
    {
        var e = new EngineEvent
        {
            Type = EventType.Trade,
            Side = Side.Sell,
            OrderType = OrderType.Limit,
            OrderId = 7,
            Price = 1_434_200,
            OrderQuantity = 2000,
            LeavesQuantity = 1000,
            CumulativeQuantity = 1000,
            CumulativeNotional = 1000L * 1_434_200,
            LastPrice = 1_434_200,
            LastQuantity = 1000,
            EventId = 3,
            Timestamp = transactTime,
            ClOrdId = ClOrdId.From("C1"),
        };
        var buffer = new byte[FixMessageWriter.TypicalMaxLength];
        int length = ExecutionReportEncoder.Encode(buffer, header, e, "AAPL"u8, 4);
        var message = new FixMessage();
        Assert.True(message.Parse(buffer.AsSpan(0, length))); // BodyLength and CheckSum still right
        return FixTestMessages.Show(buffer.AsSpan(0, length));
    }

    private static string Field(string wire, int tag)
    {
        Match match = Regex.Match(wire, $@"(?:^|\|){tag}=([^|]*)\|");
        Assert.True(match.Success, $"no tag {tag} in {wire}");
        return match.Groups[1].Value;
    }

    private static string Reference(long nanos) =>
        DateTime.UnixEpoch.AddTicks(nanos / 100).ToString("yyyyMMdd-HH:mm:ss.fff", CultureInfo.InvariantCulture);
}
