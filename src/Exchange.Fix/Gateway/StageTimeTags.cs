using Exchange.Fix.Codec;

namespace Exchange.Fix.Gateway;

/// <summary>
/// User-defined tags (FIX reserves 5000..9999 for bilateral use) carrying <see cref="StageTimes"/> on outbound
/// reports: 7001 Received, 7002 Journaled, 7003 Matched, 7004 Sent, each a <see cref="System.Diagnostics.Stopwatch"/>
/// timestamp of the venue's machine; a stage not recorded (0) is left out.
/// </summary>
internal static class StageTimeTags
{
    public const int Received = 7001;
    public const int Journaled = 7002;
    public const int Matched = 7003;
    public const int Sent = 7004;

    /// <summary>Appends the recorded stages to a body; <paramref name="sent"/> replaces an unrecorded Sent stage.</summary>
    public static int Write(Span<byte> destination, in StageTimes times, long sent)
    {
        var w = new FixMessageWriter(destination);
        Add(ref w, Received, times.Received);
        Add(ref w, Journaled, times.Journaled);
        Add(ref w, Matched, times.Matched);
        Add(ref w, Sent, sent);
        return w.Length;
    }

    private static void Add(ref FixMessageWriter w, int tag, long value)
    {
        if (value != 0)
        {
            w.AddInt(tag, value);
        }
    }
}
