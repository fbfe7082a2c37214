using System.Buffers.Binary;
using System.Text;
using Exchange.Core.Domain;

namespace Exchange.Host.Journal;

/// <summary>
/// What the indices in journalled commands mean: the ordered instrument list (a command's InstrumentId) and the ordered
/// session list (its OwnerId). The journal header keeps the one it was written with, so a restart under a reordered or
/// changed configuration is refused instead of replaying orders into the wrong books or owners.
/// </summary>
/// <remarks>
/// An instrument is recorded with every field the engine checks a command against (price decimals, tick, lot, band,
/// largest quantity), not only its symbol: replaying an accepted order under a different tick or band could reject it
/// and give every later order a different order id than the one acknowledged.
/// The day's ClOrdID limit is recorded for the same reason: an order refused because the day's ids ran out would be
/// accepted on replay under a higher limit (and an accepted one refused under a lower), shifting every later id.
/// Encoding (little-endian): instrument count (4), session count (4); per instrument: symbol length (2), UTF-8 symbol,
/// price decimals (4), tick size, lot size, min price, max price, max order quantity (8 each); per session: sender
/// CompID length (2) and UTF-8 bytes, target CompID likewise; then the ClOrdIDs per day (4).
/// </remarks>
internal sealed class JournalConfiguration
{
    private const int InstrumentFixedBytes = 2 + 4 + (5 * 8);
    private const int SessionFixedBytes = 2 + 2;

    public JournalConfiguration(IReadOnlyList<Instrument> instruments, IReadOnlyList<JournalSession> sessions, int maxClOrdIdsPerDay)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxClOrdIdsPerDay, 1);
        for (int i = 0; i < instruments.Count; i++)
        {
            if (instruments[i].Id != i)
            {
                throw new ArgumentException($"Instrument {instruments[i].Symbol} has id {instruments[i].Id} at position {i}.", nameof(instruments));
            }
        }

        Instruments = instruments;
        Sessions = sessions;
        MaxClOrdIdsPerDay = maxClOrdIdsPerDay;
    }

    /// <summary>Instruments in id order (an instrument's id is its position).</summary>
    public IReadOnlyList<Instrument> Instruments { get; }

    /// <summary>Sessions in owner-id order.</summary>
    public IReadOnlyList<JournalSession> Sessions { get; }

    /// <summary>The engine's limit on ClOrdIDs one trading day can use (Venue:Pipeline:MaxClOrdIdsPerDay).</summary>
    public int MaxClOrdIdsPerDay { get; }

    /// <summary>Bytes <see cref="Encode"/> writes.</summary>
    public int EncodedLength
    {
        get
        {
            int length = 8 + 4;
            foreach (Instrument instrument in Instruments)
            {
                length += InstrumentFixedBytes + Encoding.UTF8.GetByteCount(instrument.Symbol);
            }

            foreach (JournalSession session in Sessions)
            {
                length += SessionFixedBytes + Encoding.UTF8.GetByteCount(session.SenderCompId) + Encoding.UTF8.GetByteCount(session.TargetCompId);
            }

            return length;
        }
    }

    /// <summary>Writes the encoding into the first <see cref="EncodedLength"/> bytes of <paramref name="target"/>.</summary>
    public void Encode(Span<byte> target)
    {
        BinaryPrimitives.WriteInt32LittleEndian(target, Instruments.Count);
        BinaryPrimitives.WriteInt32LittleEndian(target[4..], Sessions.Count);
        int at = 8;
        foreach (Instrument instrument in Instruments)
        {
            at += WriteText(target[at..], instrument.Symbol);
            BinaryPrimitives.WriteInt32LittleEndian(target[at..], instrument.PriceDecimals);
            BinaryPrimitives.WriteInt64LittleEndian(target[(at + 4)..], instrument.TickSize);
            BinaryPrimitives.WriteInt64LittleEndian(target[(at + 12)..], instrument.LotSize);
            BinaryPrimitives.WriteInt64LittleEndian(target[(at + 20)..], instrument.MinPrice);
            BinaryPrimitives.WriteInt64LittleEndian(target[(at + 28)..], instrument.MaxPrice);
            BinaryPrimitives.WriteInt64LittleEndian(target[(at + 36)..], instrument.MaxOrderQuantity);
            at += InstrumentFixedBytes - 2;
        }

        foreach (JournalSession session in Sessions)
        {
            at += WriteText(target[at..], session.SenderCompId);
            at += WriteText(target[at..], session.TargetCompId);
        }

        BinaryPrimitives.WriteInt32LittleEndian(target[at..], MaxClOrdIdsPerDay);
    }

    /// <summary>Decodes what <see cref="Encode"/> wrote; null when <paramref name="source"/> is not such an encoding.</summary>
    public static JournalConfiguration? TryDecode(ReadOnlySpan<byte> source)
    {
        if (source.Length < 8)
        {
            return null;
        }

        int instrumentCount = BinaryPrimitives.ReadInt32LittleEndian(source);
        int sessionCount = BinaryPrimitives.ReadInt32LittleEndian(source[4..]);
        // Each entry takes at least its fixed bytes, which bounds the counts before anything is allocated.
        if (instrumentCount < 0 || sessionCount < 0
            || (long)instrumentCount * InstrumentFixedBytes + ((long)sessionCount * SessionFixedBytes) > source.Length - 8 - 4)
        {
            return null;
        }

        var instruments = new Instrument[instrumentCount];
        int at = 8;
        for (int i = 0; i < instrumentCount; i++)
        {
            if (!TryReadText(source, ref at, out string symbol) || source.Length - at < InstrumentFixedBytes - 2)
            {
                return null;
            }

            ReadOnlySpan<byte> fields = source[at..];
            instruments[i] = new Instrument(
                i,
                symbol,
                BinaryPrimitives.ReadInt32LittleEndian(fields),
                BinaryPrimitives.ReadInt64LittleEndian(fields[4..]),
                BinaryPrimitives.ReadInt64LittleEndian(fields[12..]),
                BinaryPrimitives.ReadInt64LittleEndian(fields[20..]),
                BinaryPrimitives.ReadInt64LittleEndian(fields[28..]),
                BinaryPrimitives.ReadInt64LittleEndian(fields[36..]));
            at += InstrumentFixedBytes - 2;
        }

        var sessions = new JournalSession[sessionCount];
        for (int i = 0; i < sessionCount; i++)
        {
            if (!TryReadText(source, ref at, out string sender) || !TryReadText(source, ref at, out string target))
            {
                return null;
            }

            sessions[i] = new JournalSession(sender, target);
        }

        if (source.Length - at != 4)
        {
            return null;
        }

        int maxClOrdIdsPerDay = BinaryPrimitives.ReadInt32LittleEndian(source[at..]);
        return maxClOrdIdsPerDay >= 1 ? new JournalConfiguration(instruments, sessions, maxClOrdIdsPerDay) : null;
    }

    private static int WriteText(Span<byte> target, string text)
    {
        int length = Encoding.UTF8.GetBytes(text, target[2..]);
        BinaryPrimitives.WriteUInt16LittleEndian(target, checked((ushort)length));
        return 2 + length;
    }

    private static bool TryReadText(ReadOnlySpan<byte> source, ref int at, out string text)
    {
        text = "";
        if (source.Length - at < 2)
        {
            return false;
        }

        int length = BinaryPrimitives.ReadUInt16LittleEndian(source[at..]);
        if (source.Length - at - 2 < length)
        {
            return false;
        }

        text = Encoding.UTF8.GetString(source.Slice(at + 2, length));
        at += 2 + length;
        return true;
    }
}
