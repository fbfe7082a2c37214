using System.Text;

namespace Exchange.Fix.Tests.Codec;

internal static class FieldTypeTestData
{
    public static byte[] Ascii(string value) => Encoding.ASCII.GetBytes(value);

    /// <summary>Unix nanoseconds from DateTime, used only as an independent oracle in tests.</summary>
    public static long Nanos(int year, int month, int day, int hour, int minute, int second, long fractionNanos = 0) =>
        ((new DateTime(year, month, day, hour, minute, second, DateTimeKind.Utc) - DateTime.UnixEpoch).Ticks * 100) + fractionNanos;
}
