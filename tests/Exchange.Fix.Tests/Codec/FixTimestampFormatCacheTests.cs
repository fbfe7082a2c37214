using System.Globalization;
using Exchange.Fix.Codec;
using Xunit;
using static Exchange.Fix.Tests.Codec.FieldTypeTestData;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// The per-thread millisecond cache behind UTCTimestamp formatting must be invisible: every sequence of times
/// (same millisecond, next millisecond, next second, day/month/year rollover, backwards, alternating) formats exactly
/// as an independent DateTime formatter does, and threads never see each other's cached text.
/// </summary>
public class FixTimestampFormatCacheTests
{
    [Fact]
    public void Sequences_AcrossMillisecondSecondDayAndYearBoundaries_FormatExactly()
    {
        long newYear = Nanos(2025, 1, 1, 0, 0, 0);
        long[] sequence =
        [
            newYear - 1, // 20241231-23:59:59.999 (truncated)
            newYear - 1_000_000, // same millisecond
            newYear - 2_000_000, // previous millisecond, same second
            newYear, // next year
            newYear + 999_999, // same millisecond
            newYear + 1_000_000, // next millisecond
            newYear + 999_000_000, // .999
            newYear + 1_000_000_000, // next second
            newYear - 1, // back across the year
            Nanos(2024, 2, 29, 12, 0, 0, 5_000_000), // leap day, far back
            Nanos(2024, 3, 1, 0, 0, 0), // day after the leap day
            Nanos(2024, 2, 29, 12, 0, 0, 5_000_000), // alternating
            Nanos(2024, 3, 1, 0, 0, 0),
            0, // the epoch
            0,
            Nanos(2261, 12, 31, 23, 59, 59, 999_000_000),
        ];

        foreach (long nanos in sequence)
        {
            Assert.Equal(Reference(nanos), Format(nanos));
        }
    }

    [Fact]
    public void RandomWalk_OfSmallAndLargeSteps_MatchesDateTime()
    {
        var random = new Random(777);
        long nanos = Nanos(2024, 12, 31, 23, 59, 0);
        for (int i = 0; i < 50_000; i++)
        {
            nanos += random.Next(5) switch
            {
                0 => 0,
                1 => random.NextInt64(0, 2_000_000), // within or to the next millisecond
                2 => random.NextInt64(-1_000_000_000, 1_000_000_000), // around the second, either way
                3 => random.NextInt64(0, 86_400_000_000_000), // up to a day on
                _ => -random.NextInt64(0, 86_400_000_000_000), // up to a day back
            };
            nanos = Math.Clamp(nanos, 0, Nanos(2261, 12, 31, 0, 0, 0));
            Assert.Equal(Reference(nanos), Format(nanos));
        }
    }

    [Fact]
    public void Threads_KeepTheirOwnCache()
    {
        long a = Nanos(2024, 3, 15, 14, 30, 0, 123_000_000);
        long b = Nanos(1999, 12, 31, 23, 59, 59, 999_000_000);
        string[] failures = new string[2];
        using var start = new Barrier(2);
        var threads = new Thread[2];
        for (int t = 0; t < 2; t++)
        {
            int index = t;
            long mine = t == 0 ? a : b;
            threads[t] = new Thread(() =>
            {
                start.SignalAndWait();
                for (int i = 0; i < 20_000; i++)
                {
                    long nanos = mine + ((i % 3) * 1_000_000L);
                    string text = Format(nanos);
                    if (text != Reference(nanos))
                    {
                        failures[index] = text;
                        return;
                    }
                }
            });
            threads[t].Start();
        }

        foreach (Thread thread in threads)
        {
            thread.Join();
        }

        Assert.Null(failures[0]);
        Assert.Null(failures[1]);
    }

    /// <summary>Edges of the cache key (millisecond + bias, 0 meaning empty) and of the calendar, each formatted on a
    /// fresh thread (empty cache) and again on a warm one.</summary>
    [Theory]
    [InlineData(0L)] // the epoch: millisecond 0 must not read as "nothing cached"
    [InlineData(999_000_000L)] // .999
    [InlineData(-1_000_000L)] // the last millisecond before the epoch
    [InlineData(long.MaxValue)] // 20620411-23:47:16.854
    public void Edges_FormatExactly_OnAFreshAndAWarmCache(long nanos)
    {
        string? fresh = null;
        var thread = new Thread(() => fresh = Format(nanos));
        thread.Start();
        thread.Join();
        Assert.Equal(Reference(nanos), fresh);
        Assert.Equal(Reference(nanos), Format(nanos));
        Assert.Equal(Reference(nanos), Format(nanos));
    }

    [Fact]
    public void TooSmallDestination_Throws() =>
        Assert.ThrowsAny<ArgumentException>(() => FixTimestamp.FormatMilliseconds(0, new byte[FixTimestamp.MillisecondsLength - 1]));

    private static string Format(long nanos)
    {
        var buffer = new byte[FixTimestamp.MillisecondsLength + 4];
        Array.Fill(buffer, (byte)0xEE);
        Assert.Equal(FixTimestamp.MillisecondsLength, FixTimestamp.FormatMilliseconds(nanos, buffer));
        Assert.All(buffer[FixTimestamp.MillisecondsLength..], b => Assert.Equal(0xEE, b)); // exactly 21 bytes written
        return FixTestMessages.Show(buffer.AsSpan(0, FixTimestamp.MillisecondsLength));
    }

    private static string Reference(long nanos) =>
        DateTime.UnixEpoch.AddTicks(nanos / 100).ToString("yyyyMMdd-HH:mm:ss.fff", CultureInfo.InvariantCulture);
}
