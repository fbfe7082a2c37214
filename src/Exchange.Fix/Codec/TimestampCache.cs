namespace Exchange.Fix.Codec;

/// <summary>
/// The last second <see cref="FixTimestamp"/> converted: its "yyyyMMdd" and "HH0mm0ss" bytes and its Unix nanoseconds.
/// Owned by one parser (one connection's <see cref="FixMessage"/>), so not shared between threads.
/// </summary>
internal struct TimestampCache
{
    public ulong DateBytes;
    public ulong TimeBytes;
    public long SecondNanos;
}
